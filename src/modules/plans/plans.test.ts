import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDialect('plans: create, names and templates', (api) => {
  const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;
  const planUrl = (facility: number, id: number) => `${plansUrl(facility)}/${id}`;
  const entitlementsUrl = (facility: number, id: number) => `${planUrl(facility, id)}/entitlements`;

  test('create with only a name fills every default and answers 201 with Location', async () => {
    const facility = api.newFacility();
    await api.patch(`/admin/facilities/${facility}/policy`, { currency: 'EUR' });
    const response = await api.post(plansUrl(facility), { name: 'Adult monthly' });
    assert.equal(response.status, 201, response.text);
    const { id, created_at, updated_at, ...rest } = response.body;
    assert.deepEqual(rest, {
      facility_id: facility,
      name: 'Adult monthly',
      description: null,
      sport_id: null,
      template_id: null,
      price_amount: 0,
      currency: 'EUR',
      billing_period: 'monthly',
      duration_days: null,
      joining_fee_amount: 0,
      max_members: null,
      is_active: true,
      deleted_at: null,
    });
    assert.ok(Number.isInteger(id) && id > 0);
    assert.match(created_at, TIMESTAMP);
    assert.equal(updated_at, created_at);
    assert.equal(response.headers.location, planUrl(facility, id));
    const read = await api.get(String(response.headers.location));
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, response.body);
  });

  test('a POST to the collection with a trailing slash answers the same Location, without a double slash', async () => {
    const facility = api.newFacility();
    const response = await api.post(`${plansUrl(facility)}/`, { name: 'Slash' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.headers.location, planUrl(facility, response.body.id));
    assert.equal((await api.get(String(response.headers.location))).status, 200);
  });

  test('the default currency is the policy currency, USD when the policy was never set', async () => {
    const facility = api.newFacility();
    const response = await api.post(plansUrl(facility), { name: 'Adult monthly' });
    assert.equal(response.status, 201);
    assert.equal(response.body.currency, 'USD');
  });

  test('create stores every field sent', async () => {
    const facility = api.newFacility();
    const body = {
      name: 'Junior tennis',
      description: 'Two coached sessions a week',
      sport_id: 7,
      price_amount: 100_000_000,
      currency: 'GBP',
      billing_period: 'quarterly',
      duration_days: 3650,
      joining_fee_amount: 2500,
      max_members: 1_000_000,
      is_active: false,
    };
    const response = await api.post(plansUrl(facility), body);
    assert.equal(response.status, 201, response.text);
    const { id, created_at, updated_at, ...rest } = response.body;
    assert.deepEqual(rest, { ...body, facility_id: facility, template_id: null, deleted_at: null });
    const read = await api.get(planUrl(facility, id));
    assert.deepEqual(read.body, response.body);
  });

  test('every billing period is accepted', async () => {
    const facility = api.newFacility();
    for (const billing_period of ['one_time', 'weekly', 'monthly', 'quarterly', 'yearly']) {
      const response = await api.post(plansUrl(facility), { name: `Plan ${billing_period}`, billing_period });
      assert.equal(response.status, 201, response.text);
      assert.equal(response.body.billing_period, billing_period);
    }
  });

  test('the name is trimmed; its length counts after trimming', async () => {
    const facility = api.newFacility();
    const padded = await api.post(plansUrl(facility), { name: '  Adult monthly \t' });
    assert.equal(padded.status, 201);
    assert.equal(padded.body.name, 'Adult monthly');
    const longest = 'x'.repeat(120);
    const long = await api.post(plansUrl(facility), { name: `  ${longest}  ` });
    assert.equal(long.status, 201, long.text);
    assert.equal(long.body.name, longest);
  });

  test('names are unique per facility ignoring case and surrounding spaces: 409 plan_name_conflict', async () => {
    const facility = api.newFacility();
    assert.equal((await api.post(plansUrl(facility), { name: 'Gold' })).status, 201);
    assertProblem(await api.post(plansUrl(facility), { name: 'gold' }), 409, 'plan_name_conflict');
    assertProblem(await api.post(plansUrl(facility), { name: ' GOLD ' }), 409, 'plan_name_conflict');
    const list = await api.get(`${plansUrl(facility)}?include_inactive=true`);
    assert.deepEqual(
      list.body.plans.map((p: { name: string }) => p.name),
      ['Gold'],
    );
  });

  test('names are unique ignoring case beyond ASCII too: Ärger, ärger, ÄRGER; full-width Ｆｕｌｌ, ｆｕｌｌ', async () => {
    const facility = api.newFacility();
    for (const [first, ...others] of [
      ['Ärger', 'ärger', 'ÄRGER'],
      ['Ｆｕｌｌ', 'ｆｕｌｌ', 'ＦＵＬＬ'],
    ]) {
      assert.equal((await api.post(plansUrl(facility), { name: first })).status, 201);
      for (const other of others) {
        assertProblem(await api.post(plansUrl(facility), { name: other }), 409, 'plan_name_conflict');
      }
    }
    const list = await api.get(`${plansUrl(facility)}?include_inactive=true`);
    assert.deepEqual(
      list.body.plans.map((p: { name: string }) => p.name),
      ['Ärger', 'Ｆｕｌｌ'],
    );
  });

  test('an inactive plan still holds its name', async () => {
    const facility = api.newFacility();
    assert.equal((await api.post(plansUrl(facility), { name: 'Gold', is_active: false })).status, 201);
    assertProblem(await api.post(plansUrl(facility), { name: 'Gold' }), 409, 'plan_name_conflict');
  });

  test('concurrent creates with one name make exactly one plan', async () => {
    const facility = api.newFacility();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api.post(plansUrl(facility), { name: 'Gold' })),
    );
    assert.deepEqual(responses.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((r) => r.status === 409)) assertProblem(r, 409, 'plan_name_conflict');
  });

  test('the same name is allowed in another facility', async () => {
    const first = api.newFacility();
    const second = api.newFacility();
    assert.equal((await api.post(plansUrl(first), { name: 'Gold' })).status, 201);
    const other = await api.post(plansUrl(second), { name: 'Gold' });
    assert.equal(other.status, 201);
    assert.equal(other.body.facility_id, second);
  });

  test('the name of a soft-deleted plan can be used again', async () => {
    const facility = api.newFacility();
    const old = await api.post(plansUrl(facility), { name: 'Gold' });
    assert.equal((await api.delete(planUrl(facility, old.body.id))).status, 204);
    const reused = await api.post(plansUrl(facility), { name: 'gold' });
    assert.equal(reused.status, 201);
    assert.notEqual(reused.body.id, old.body.id);
  });

  test('template_id copies the fields the body leaves out, currency included', async () => {
    const facility = api.newFacility();
    await api.patch(`/admin/facilities/${facility}/policy`, { currency: 'EUR' });
    const template = (await api.get('/admin/plan-templates?sport_id=1')).body.templates.find(
      (t: { id: number }) => t.id === 2,
    );
    const response = await api.post(plansUrl(facility), { name: 'Juniors', template_id: 2 });
    assert.equal(response.status, 201, response.text);
    const { id, created_at, updated_at, ...rest } = response.body;
    assert.deepEqual(rest, {
      facility_id: facility,
      name: 'Juniors',
      description: template.description,
      sport_id: 1,
      template_id: 2,
      price_amount: 24000,
      currency: 'USD',
      billing_period: 'one_time',
      duration_days: 84,
      joining_fee_amount: 0,
      max_members: null,
      is_active: true,
      deleted_at: null,
    });
  });

  test("template_id copies the template's entitlements", async () => {
    const facility = api.newFacility();
    const plan = await api.post(plansUrl(facility), { name: 'Juniors', template_id: 2 });
    const entitlements = await api.get(entitlementsUrl(facility, plan.body.id));
    assert.equal(entitlements.status, 200);
    assert.deepEqual(entitlements.body, {
      entitlements: [
        { key: 'age_group', value: 'under-18' },
        { key: 'classes_per_week', value: 2 },
        { key: 'court_booking_window_days', value: 3 },
      ],
    });
  });

  test('fields the body sends win over the template, null included', async () => {
    const facility = api.newFacility();
    const body = {
      name: 'Juniors',
      template_id: 2,
      description: null,
      sport_id: null,
      price_amount: 0,
      currency: 'CHF',
      billing_period: 'weekly',
      duration_days: null,
    };
    const response = await api.post(plansUrl(facility), body);
    assert.equal(response.status, 201, response.text);
    const { id, created_at, updated_at, ...rest } = response.body;
    assert.deepEqual(rest, {
      ...body,
      facility_id: facility,
      joining_fee_amount: 0,
      max_members: null,
      is_active: true,
      deleted_at: null,
    });
  });

  test('an unknown template is 422 invalid_template and creates nothing', async () => {
    const facility = api.newFacility();
    assertProblem(
      await api.post(plansUrl(facility), { name: 'X', template_id: 9999 }),
      422,
      'invalid_template',
    );
    const list = await api.get(`${plansUrl(facility)}?include_inactive=true`);
    assert.deepEqual(list.body.plans, []);
  });

  test('template_id null is the same as leaving it out', async () => {
    const facility = api.newFacility();
    const response = await api.post(plansUrl(facility), { name: 'Plain', template_id: null });
    assert.equal(response.status, 201);
    assert.equal(response.body.template_id, null);
    assert.equal(response.body.price_amount, 0);
    const entitlements = await api.get(entitlementsUrl(facility, response.body.id));
    assert.deepEqual(entitlements.body, { entitlements: [] });
  });
});
