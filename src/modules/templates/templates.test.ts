import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { DEFAULT_TEMPLATES_FILE, loadTemplateCatalog, TemplateCatalogError } from './template.catalog.js';

const TEMPLATES_URL = '/admin/plan-templates';
const TEMPLATE_FIELDS = [
  'billing_period',
  'currency',
  'description',
  'duration_days',
  'entitlements',
  'id',
  'name',
  'price_amount',
  'sport_id',
];
const BILLING_PERIODS = ['one_time', 'weekly', 'monthly', 'quarterly', 'yearly'];

interface RawTemplate {
  id: number;
  sport_id: number | null;
  entitlements: { key: string; value: unknown }[];
  [field: string]: unknown;
}

/** What the service must serve for a file: ordered by id, entitlements sorted by key. */
function expectedListing(templates: RawTemplate[]): RawTemplate[] {
  return [...templates]
    .map((t) => ({ ...t, entitlements: [...t.entitlements].sort((a, b) => (a.key < b.key ? -1 : 1)) }))
    .sort((a, b) => a.id - b.id);
}

const shipped: RawTemplate[] = JSON.parse(readFileSync(DEFAULT_TEMPLATES_FILE, 'utf8')).templates;

const workDir = mkdtempSync(join(tmpdir(), 'facility-admin-templates-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

let fileCounter = 0;
function writeCatalogFile(content: unknown): string {
  const file = join(workDir, `catalog-${++fileCounter}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function validTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    name: 'Padel monthly',
    description: 'Court booking for padel',
    sport_id: 40,
    billing_period: 'monthly',
    price_amount: 4500,
    currency: 'EUR',
    duration_days: null,
    entitlements: [{ key: 'court_hours', value: 8 }],
    ...overrides,
  };
}

/** The operator's own catalog, deliberately not ordered by id and with unsorted entitlements. */
const operatorTemplates: RawTemplate[] = [
  {
    id: 900,
    name: 'Squash evening',
    description: null,
    sport_id: 77,
    billing_period: 'weekly',
    price_amount: 1200,
    currency: 'GBP',
    duration_days: 30,
    entitlements: [
      { key: 'zeta', value: 'last' },
      { key: 'Alpha', value: true },
      { key: 'court_hours', value: 2.5 },
    ],
  },
  {
    id: 7,
    name: 'Rowing club yearly',
    description: 'Boat access all year',
    sport_id: 78,
    billing_period: 'yearly',
    price_amount: 0,
    currency: 'EUR',
    duration_days: 3650,
    entitlements: [],
  },
  {
    id: 42,
    name: 'Squash day pass',
    description: 'One day',
    sport_id: 77,
    billing_period: 'one_time',
    price_amount: 100_000_000,
    currency: 'JPY',
    duration_days: 1,
    entitlements: [{ key: 'guest_passes', value: 0 }],
  },
];
const operatorFile = writeCatalogFile({ templates: operatorTemplates });

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

describe('loadTemplateCatalog', () => {
  function assertCatalogError(file: string, ...fragments: (string | RegExp)[]) {
    assert.throws(
      () => loadTemplateCatalog(file),
      (error: unknown) => {
        assert.ok(error instanceof TemplateCatalogError, `not a TemplateCatalogError: ${error}`);
        assert.ok(error.message.includes(file), `the message names the file: ${error.message}`);
        for (const fragment of fragments) {
          if (typeof fragment === 'string') assert.ok(error.message.includes(fragment), error.message);
          else assert.match(error.message, fragment);
        }
        return true;
      },
    );
  }

  test('loads the shipped file by default and finds templates by id', () => {
    const catalog = loadTemplateCatalog();
    const all = catalog.list({ afterId: 0, limit: 1000 });
    assert.deepEqual(all, expectedListing(shipped));
    assert.equal(catalog.findById(all[0].id)?.name, all[0].name);
    assert.equal(catalog.findById(123456), undefined);
  });

  test('a valid operator file loads, ordered by id', () => {
    const catalog = loadTemplateCatalog(operatorFile);
    assert.deepEqual(catalog.list({ afterId: 0, limit: 10 }), expectedListing(operatorTemplates));
    assert.deepEqual(
      catalog.list({ sportId: 77, afterId: 42, limit: 10 }).map((t) => t.id),
      [900],
    );
  });

  test('a file with a byte order mark loads', () => {
    const file = writeCatalogFile(`\uFEFF${JSON.stringify({ templates: [validTemplate()] })}`);
    assert.equal(loadTemplateCatalog(file).findById(1)?.name, 'Padel monthly');
  });

  test('a missing file is a clear error', () => {
    assertCatalogError(join(workDir, 'does-not-exist.json'), 'Cannot read');
  });

  test('invalid JSON is a clear error', () => {
    assertCatalogError(writeCatalogFile('{"templates": [ {"id": 1,'), 'not valid JSON');
    assertCatalogError(writeCatalogFile(''), 'not valid JSON');
  });

  test('a field with a bad value is named with its pointer', () => {
    const file = writeCatalogFile({
      templates: [validTemplate(), validTemplate({ id: 2, price_amount: -5, currency: 'eur' })],
    });
    assertCatalogError(file, '/templates/1/price_amount', '/templates/1/currency');
  });

  test('a bad billing period, entitlement key or entitlement value is named', () => {
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ billing_period: 'daily' })] }),
      '/templates/0/billing_period',
      'monthly',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: '_bad key', value: 1 }] })] }),
      '/templates/0/entitlements/0/key',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: 'a', value: null }] })] }),
      '/templates/0/entitlements/0/value',
    );
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ entitlements: [{ key: 'a', value: { x: 1 } }] })] }),
      '/templates/0/entitlements/0/value',
    );
  });

  test('a number too large for a finite value is rejected', () => {
    const text = JSON.stringify({ templates: [validTemplate({ entitlements: [{ key: 'a', value: 7 }] })] });
    assertCatalogError(
      writeCatalogFile(text.replace('"value":7', '"value":1e400')),
      '/templates/0/entitlements/0/value',
    );
  });

  test('missing and unknown fields are named', () => {
    const { currency: _currency, ...withoutCurrency } = validTemplate();
    assertCatalogError(writeCatalogFile({ templates: [withoutCurrency] }), '/templates/0', 'currency');
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ colour: 'red' })] }),
      '/templates/0',
      'colour',
    );
    assertCatalogError(writeCatalogFile({ templates: [], version: 2 }), 'version');
    assertCatalogError(writeCatalogFile([validTemplate()]), 'templates');
  });

  test('duplicate template ids are rejected, naming the id', () => {
    const file = writeCatalogFile({
      templates: [
        validTemplate({ id: 5 }),
        validTemplate({ id: 6 }),
        validTemplate({ id: 5, name: 'Other' }),
      ],
    });
    assertCatalogError(file, /\b5\b/, 'same id');
  });

  test('duplicate entitlement keys in one template are rejected', () => {
    const file = writeCatalogFile({
      templates: [
        validTemplate({
          entitlements: [
            { key: 'court_hours', value: 1 },
            { key: 'court_hours', value: 2 },
          ],
        }),
      ],
    });
    assertCatalogError(file, '/templates/0/entitlements/1/key', 'court_hours');
  });

  test('a blank name is rejected', () => {
    assertCatalogError(
      writeCatalogFile({ templates: [validTemplate({ name: '   ' })] }),
      '/templates/0/name',
    );
  });

  test('buildApp refuses to start with an invalid templates file', async () => {
    const file = writeCatalogFile({ templates: [validTemplate({ duration_days: 0 })] });
    await assert.rejects(
      buildApp(
        { ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'none', templatesFile: file },
        { logger: false },
      ),
      (error: unknown) =>
        error instanceof TemplateCatalogError &&
        error.message.includes(file) &&
        error.message.includes('/templates/0/duration_days'),
    );
  });
});
