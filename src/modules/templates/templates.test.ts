import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';
import {
  BILLING_PERIODS,
  expectedListing,
  operatorFile,
  operatorTemplates,
  type RawTemplate,
  shipped,
  TEMPLATE_FIELDS,
  TEMPLATES_URL,
} from './template.fixtures.js';

describeEachDialect('plan templates: the shipped catalog', (api) => {
  test('lists at least 12 templates over at least 4 sports, every field present and typed', async () => {
    const response = await api.get(TEMPLATES_URL);
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(response.body).sort(), ['next_cursor', 'templates']);
    assert.equal(response.body.next_cursor, null);
    const templates = response.body.templates;
    assert.ok(templates.length >= 12, `only ${templates.length} templates`);
    const sports = new Set(templates.map((t: RawTemplate) => t.sport_id).filter((s: unknown) => s !== null));
    assert.ok(sports.size >= 4, `only ${sports.size} sport ids`);
    for (const template of templates) {
      assert.deepEqual(Object.keys(template).sort(), TEMPLATE_FIELDS, `fields of template ${template.id}`);
      assert.ok(Number.isSafeInteger(template.id) && template.id > 0);
      assert.equal(typeof template.name, 'string');
      assert.ok(template.name.trim().length > 0);
      assert.ok(template.description === null || typeof template.description === 'string');
      assert.ok(
        template.sport_id === null || (Number.isSafeInteger(template.sport_id) && template.sport_id > 0),
      );
      assert.ok(BILLING_PERIODS.includes(template.billing_period), template.billing_period);
      assert.ok(Number.isSafeInteger(template.price_amount) && template.price_amount >= 0);
      assert.match(template.currency, /^[A-Z]{3}$/);
      assert.ok(
        template.duration_days === null ||
          (Number.isSafeInteger(template.duration_days) && template.duration_days >= 1),
      );
      assert.ok(Array.isArray(template.entitlements));
      for (const entitlement of template.entitlements) {
        assert.deepEqual(Object.keys(entitlement), ['key', 'value']);
        assert.ok(['string', 'number', 'boolean'].includes(typeof entitlement.value));
      }
      const keys = template.entitlements.map((e: { key: string }) => e.key);
      assert.deepEqual(keys, [...keys].sort(), `entitlements of template ${template.id} sorted by key`);
      assert.equal(new Set(keys).size, keys.length);
    }
  });

  test('serves exactly the shipped file, ordered by id, entitlements sorted by key', async () => {
    const response = await api.get(TEMPLATES_URL);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.templates, expectedListing(shipped));
    const ids = response.body.templates.map((t: RawTemplate) => t.id);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `ids ascending: ${ids.join(',')}`);
  });

  test('entitlement values keep their JSON type (number, string, boolean, fraction)', async () => {
    const response = await api.get(TEMPLATES_URL);
    const values = response.body.templates.flatMap((t: RawTemplate) => t.entitlements.map((e) => e.value));
    assert.ok(values.some((v: unknown) => typeof v === 'boolean'));
    assert.ok(values.some((v: unknown) => typeof v === 'string'));
    assert.ok(values.some((v: unknown) => Number.isInteger(v)));
    const tennis = response.body.templates.find((t: RawTemplate) => t.id === 1);
    assert.deepEqual(tennis.entitlements, [
      { key: 'ball_machine_access', value: true },
      { key: 'court_booking_window_days', value: 7 },
      { key: 'guest_passes_per_month', value: 2 },
    ]);
  });

  test('sport_id filters exactly, for every sport of the catalog', async () => {
    const all = expectedListing(shipped);
    const sports = [...new Set(all.map((t) => t.sport_id))].filter((s): s is number => s !== null);
    for (const sport of sports) {
      const response = await api.get(`${TEMPLATES_URL}?sport_id=${sport}`);
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.templates,
        all.filter((t) => t.sport_id === sport),
        `sport ${sport}`,
      );
      assert.equal(response.body.next_cursor, null);
    }
  });

  test('a sport without templates gives an empty list', async () => {
    const response = await api.get(`${TEMPLATES_URL}?sport_id=999999`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { templates: [], next_cursor: null });
  });

  test('limit and cursor walk the whole catalog without gaps or repeats', async () => {
    const all = expectedListing(shipped);
    for (const limit of [1, 5, all.length - 1]) {
      const seen: RawTemplate[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${cursor}`;
        const response = await api.get(`${TEMPLATES_URL}?${query}`);
        assert.equal(response.status, 200, response.text);
        assert.ok(response.body.templates.length <= limit);
        seen.push(...response.body.templates);
        cursor = response.body.next_cursor;
        if (cursor !== null) {
          assert.equal(typeof cursor, 'string');
          assert.equal(response.body.templates.length, limit, 'a page before the last is full');
        }
        pages++;
        assert.ok(pages <= all.length + 1, 'the walk ends');
      } while (cursor !== null);
      assert.deepEqual(seen, all, `walk with limit ${limit}`);
      assert.equal(pages, Math.ceil(all.length / limit), `pages with limit ${limit}`);
    }
  });

  test('a limit equal to the catalog size is one page with next_cursor null', async () => {
    const response = await api.get(`${TEMPLATES_URL}?limit=${shipped.length}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.templates.length, shipped.length);
    assert.equal(response.body.next_cursor, null);
  });

  test('paging combines with the sport filter', async () => {
    const all = expectedListing(shipped);
    const sport = all[0].sport_id as number;
    const expected = all.filter((t) => t.sport_id === sport);
    assert.ok(expected.length >= 2, 'the first sport has at least two templates');
    const first = await api.get(`${TEMPLATES_URL}?sport_id=${sport}&limit=1`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.templates, expected.slice(0, 1));
    assert.notEqual(first.body.next_cursor, null);
    const rest = await api.get(
      `${TEMPLATES_URL}?sport_id=${sport}&limit=100&cursor=${first.body.next_cursor}`,
    );
    assert.equal(rest.status, 200);
    assert.deepEqual(rest.body.templates, expected.slice(1));
    assert.equal(rest.body.next_cursor, null);
  });

  test('limit accepts 1 to 1000 and rejects anything else naming limit', async () => {
    assert.equal((await api.get(`${TEMPLATES_URL}?limit=1`)).status, 200);
    assert.equal((await api.get(`${TEMPLATES_URL}?limit=1000`)).body.templates.length, shipped.length);
    for (const bad of ['0', '1001', '-1', 'abc', '1.5', '1e2', '']) {
      const body = assertInvalid(await api.get(`${TEMPLATES_URL}?limit=${bad}`), 'limit');
      assert.equal(body.errors[0].location, 'query', `limit=${bad}`);
    }
  });

  test('a cursor the service did not issue is 400 naming cursor', async () => {
    const issued = (await api.get(`${TEMPLATES_URL}?limit=2`)).body.next_cursor as string;
    const forged = [
      'abc',
      'not-a-cursor',
      Buffer.from('id:-5').toString('base64url'),
      Buffer.from('id:0').toString('base64url'),
      Buffer.from('id:1.5').toString('base64url'),
      Buffer.from('id:99999999999999999999').toString('base64url'),
      `${issued}x`,
      'x'.repeat(201),
    ];
    for (const cursor of forged) {
      const body = assertInvalid(
        await api.get(`${TEMPLATES_URL}?cursor=${encodeURIComponent(cursor)}`),
        'cursor',
      );
      assert.equal(body.errors[0].location, 'query');
    }
  });

  test('sport_id must be a positive integer', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '1e3', '0x10', '9007199254740992', '']) {
      const body = assertInvalid(await api.get(`${TEMPLATES_URL}?sport_id=${bad}`), 'sport_id');
      assert.equal(body.errors[0].location, 'query');
      assert.equal(body.instance, TEMPLATES_URL);
    }
  });

  test('a plan created from a template copies its fields and entitlements', async () => {
    const template = expectedListing(shipped).find((t) => t.entitlements.length >= 3) as RawTemplate;
    const facility = api.newFacility();
    const created = await api.post(`/admin/facilities/${facility}/plans`, {
      name: 'From a template',
      template_id: template.id,
    });
    assert.equal(created.status, 201, created.text);
    for (const field of [
      'description',
      'sport_id',
      'billing_period',
      'price_amount',
      'currency',
      'duration_days',
    ]) {
      assert.deepEqual(created.body[field], template[field], field);
    }
    assert.equal(created.body.template_id, template.id);
    const entitlements = await api.get(`/admin/facilities/${facility}/plans/${created.body.id}/entitlements`);
    assert.deepEqual(entitlements.body, { entitlements: template.entitlements });
  });
});

describeEachDialect(
  "plan templates: an operator's own catalog",
  (api) => {
    test('serves the operator file instead of the shipped one, ordered by id', async () => {
      const response = await api.get(TEMPLATES_URL);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { templates: expectedListing(operatorTemplates), next_cursor: null });
      assert.deepEqual(
        response.body.templates.map((t: RawTemplate) => t.id),
        [7, 42, 900],
      );
      assert.deepEqual(
        response.body.templates[2].entitlements.map((e: { key: string }) => e.key),
        ['Alpha', 'court_hours', 'zeta'],
      );
    });

    test('filters and pages the operator file', async () => {
      const squash = await api.get(`${TEMPLATES_URL}?sport_id=77&limit=1`);
      assert.equal(squash.status, 200);
      assert.deepEqual(
        squash.body.templates.map((t: RawTemplate) => t.id),
        [42],
      );
      const next = await api.get(`${TEMPLATES_URL}?sport_id=77&limit=1&cursor=${squash.body.next_cursor}`);
      assert.deepEqual(
        next.body.templates.map((t: RawTemplate) => t.id),
        [900],
      );
      assert.equal(next.body.next_cursor, null);
      const none = await api.get(`${TEMPLATES_URL}?sport_id=1`);
      assert.deepEqual(none.body, { templates: [], next_cursor: null });
    });

    test('plans use the operator templates; a shipped-only template id is 422 invalid_template', async () => {
      const facility = api.newFacility();
      const created = await api.post(`/admin/facilities/${facility}/plans`, {
        name: 'Squash',
        template_id: 900,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.currency, 'GBP');
      assert.equal(created.body.billing_period, 'weekly');
      assert.equal(created.body.price_amount, 1200);
      assert.equal(created.body.sport_id, 77);
      assert.equal(created.body.duration_days, 30);
      const entitlements = await api.get(
        `/admin/facilities/${facility}/plans/${created.body.id}/entitlements`,
      );
      assert.deepEqual(entitlements.body.entitlements, [
        { key: 'Alpha', value: true },
        { key: 'court_hours', value: 2.5 },
        { key: 'zeta', value: 'last' },
      ]);
      const missing = await api.post(`/admin/facilities/${facility}/plans`, {
        name: 'Tennis',
        template_id: 1,
      });
      assertProblem(missing, 422, 'invalid_template');
      const plans = await api.get(`/admin/facilities/${facility}/plans`);
      assert.deepEqual(
        plans.body.plans.map((p: { name: string }) => p.name),
        ['Squash'],
      );
    });
  },
  { templatesFile: operatorFile },
);
