import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';

/** A value out of range or of the wrong type for each field, and the extremes that are fine. */
const BOUNDS: Record<string, { bad: unknown[]; good: unknown[] }> = {
  name: { bad: ['', '   ', 'x'.repeat(121), 5, null], good: ['x', 'x'.repeat(120)] },
  description: { bad: ['x'.repeat(2001), 5, true], good: ['', 'x'.repeat(2000), null] },
  sport_id: { bad: [0, -1, 1.5, '3', 2 ** 53], good: [1, 2 ** 53 - 1, null] },
  price_amount: { bad: [-1, 100_000_001, 1.5, '100', null], good: [0, 100_000_000] },
  currency: { bad: ['usd', 'EU', 'EURO', 'E1R', '', 978, null], good: ['EUR', 'JPY'] },
  billing_period: { bad: ['daily', 'Monthly', '', 1, null], good: ['one_time', 'yearly'] },
  duration_days: { bad: [0, 3651, 1.5, '30'], good: [1, 3650, null] },
  joining_fee_amount: { bad: [-1, 100_000_001, 2.5, '0', null], good: [0, 100_000_000] },
  max_members: { bad: [0, 1_000_001, 1.5, '10'], good: [1, 1_000_000, null] },
  is_active: { bad: ['true', 1, 0, null], good: [true, false] },
  template_id: { bad: [0, -1, 1.5, '1'], good: [1, null] },
};

const READ_ONLY = {
  id: 1,
  facility_id: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  deleted_at: null,
};

describeEachDialect('plans: validation', (api) => {
  const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;
  const planUrl = (facility: number, id: number) => `${plansUrl(facility)}/${id}`;

  async function listAll(facility: number) {
    return (await api.get(`${plansUrl(facility)}?include_inactive=true`)).body.plans;
  }

  test('create: every field has its bounds and type, and its extremes are accepted', async () => {
    const facility = api.newFacility();
    let n = 0;
    for (const [field, { bad, good }] of Object.entries(BOUNDS)) {
      for (const value of bad) {
        const body = { name: `Bad ${++n}`, [field]: value };
        assertInvalid(await api.post(plansUrl(facility), body), `/${field}`);
      }
      for (const value of good) {
        const body = { name: `Good ${++n}`, [field]: value };
        const response = await api.post(plansUrl(facility), body);
        assert.equal(response.status, 201, `${field}=${JSON.stringify(value)}: ${response.text}`);
        if (field !== 'name' && field !== 'template_id') assert.deepEqual(response.body[field], value);
      }
    }
  });

  test('PATCH: every field has its bounds and type; null clears only nullable fields', async () => {
    const facility = api.newFacility();
    const plan = (await api.post(plansUrl(facility), { name: 'Gold', description: 'd', sport_id: 2 })).body;
    for (const [field, { bad, good }] of Object.entries(BOUNDS)) {
      if (field === 'template_id') continue;
      for (const value of bad) {
        assertInvalid(await api.patch(planUrl(facility, plan.id), { [field]: value }), `/${field}`);
      }
      for (const value of good) {
        const response = await api.patch(planUrl(facility, plan.id), { [field]: value });
        assert.equal(response.status, 200, `${field}=${JSON.stringify(value)}: ${response.text}`);
        assert.deepEqual(response.body[field], value);
      }
    }
  });

  test('create needs a name', async () => {
    const facility = api.newFacility();
    const body = assertInvalid(await api.post(plansUrl(facility), { price_amount: 100 }), '/name');
    assert.equal(body.errors[0].message, 'is required');
  });

  test('a body that is not a JSON object is 400', async () => {
    const facility = api.newFacility();
    for (const body of ['[{"name":"Gold"}]', '"Gold"', '5', 'null']) {
      const response = await api.post(plansUrl(facility), body);
      assert.equal(response.status, 400, `${body}: ${response.text}`);
    }
    assert.deepEqual(await listAll(facility), []);
  });

  test('unknown fields are 400', async () => {
    const facility = api.newFacility();
    const body = assertInvalid(
      await api.post(plansUrl(facility), { name: 'Gold', colour: 'red' }),
      '/colour',
    );
    assert.equal(body.errors[0].location, 'body');
    const plan = (await api.post(plansUrl(facility), { name: 'Gold' })).body;
    assertInvalid(await api.patch(planUrl(facility, plan.id), { colour: 'red' }), '/colour');
  });

  test('read-only fields in a create body are 400 "is read-only"', async () => {
    const facility = api.newFacility();
    for (const [field, value] of Object.entries(READ_ONLY)) {
      const body = assertInvalid(
        await api.post(plansUrl(facility), { name: 'Gold', [field]: value }),
        `/${field}`,
      );
      assert.equal(body.errors[0].message, 'is read-only');
    }
    assert.deepEqual(await listAll(facility), []);
  });

  test('read-only fields in a PATCH are 400, template_id included, and change nothing', async () => {
    const facility = api.newFacility();
    const plan = (await api.post(plansUrl(facility), { name: 'Gold' })).body;
    for (const [field, value] of Object.entries({ ...READ_ONLY, template_id: 1 })) {
      assertInvalid(await api.patch(planUrl(facility, plan.id), { [field]: value }), `/${field}`);
    }
    assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
  });

  test('several errors are listed at once', async () => {
    const facility = api.newFacility();
    const response = await api.post(plansUrl(facility), {
      name: '',
      price_amount: -1,
      currency: 'eur',
      billing_period: 'daily',
      duration_days: 0,
      max_members: 0,
      is_active: 'yes',
      id: 3,
      colour: 'red',
    });
    const body = assertInvalid(
      response,
      '/name',
      '/price_amount',
      '/currency',
      '/billing_period',
      '/duration_days',
      '/max_members',
      '/is_active',
      '/id',
      '/colour',
    );
    assert.ok(body.errors.every((e: { location: string }) => e.location === 'body'));
    assert.deepEqual(await listAll(facility), []);
  });

  test('a PATCH with an error changes nothing, not even the valid fields', async () => {
    const facility = api.newFacility();
    const plan = (await api.post(plansUrl(facility), { name: 'Gold' })).body;
    assertInvalid(
      await api.patch(planUrl(facility, plan.id), { price_amount: 500, currency: 'x' }),
      '/currency',
    );
    assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
  });
});
