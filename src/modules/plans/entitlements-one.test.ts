import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';

describeEachDialect('entitlements: one key', (api) => {
  const entitlementsUrl = (facility: number, planId: number) =>
    `/admin/facilities/${facility}/plans/${planId}/entitlements`;
  const entitlementUrl = (facility: number, planId: number, key: string) =>
    `${entitlementsUrl(facility, planId)}/${key}`;

  async function createPlan(facility: number, body: Record<string, unknown> = {}) {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold', ...body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  const listed = async (facility: number, planId: number) =>
    (await api.get(entitlementsUrl(facility, planId))).body.entitlements;

  test('PUT one answers 201 {key, value} when the key is new', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await api.put(entitlementUrl(facility, plan.id, 'guest_passes'), { value: 2 });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body, { key: 'guest_passes', value: 2 });
    assert.deepEqual(await listed(facility, plan.id), [{ key: 'guest_passes', value: 2 }]);
  });

  test('PUT one answers 200 when it replaces the value, keeping the others', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 1 });
    const response = await api.put(entitlementUrl(facility, plan.id, 'guest_passes_per_month'), {
      value: 'unlimited',
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { key: 'guest_passes_per_month', value: 'unlimited' });
    assert.deepEqual(await listed(facility, plan.id), [
      { key: 'ball_machine_access', value: true },
      { key: 'court_booking_window_days', value: 7 },
      { key: 'guest_passes_per_month', value: 'unlimited' },
    ]);
  });

  test('PUT one keeps the JSON type of the value', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const value of ['2', 2, 2.5, 0, -1, 1e-7, true, false, '']) {
      const response = await api.put(entitlementUrl(facility, plan.id, 'k'), { value });
      assert.ok([200, 201].includes(response.status), response.text);
      assert.deepEqual(response.body, { key: 'k', value });
      assert.deepEqual(await listed(facility, plan.id), [{ key: 'k', value }]);
    }
  });

  test('PUT one accepts a body key equal to the path key', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await api.put(entitlementUrl(facility, plan.id, 'Sauna'), { key: 'Sauna', value: true });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body, { key: 'Sauna', value: true });
  });

  test('PUT one with a body key other than the path key is 400 and changes nothing', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const key of ['other', 'sauna', 5]) {
      const response = await api.put(entitlementUrl(facility, plan.id, 'Sauna'), { key, value: true });
      assertInvalid(response, '/key');
    }
    assert.deepEqual(await listed(facility, plan.id), []);
  });

  test('PUT one when the plan has 100 entitlements is 400 for a new key, 200 for an existing one', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ key: `key_${i}`, value: i }));
    assert.equal((await api.put(entitlementsUrl(facility, plan.id), { entitlements: hundred })).status, 200);
    const extra = await api.put(entitlementUrl(facility, plan.id, 'one_more'), { value: 1 });
    assertProblem(extra, 400, 'validation_error');
    const replaced = await api.put(entitlementUrl(facility, plan.id, 'key_7'), { value: 'seven' });
    assert.equal(replaced.status, 200, replaced.text);
    const after = await listed(facility, plan.id);
    assert.equal(after.length, 100);
    assert.equal(
      after.some((e: { key: string }) => e.key === 'one_more'),
      false,
    );
  });

  test('PUT one checks the value: null, objects, arrays, 501 characters and a missing value are 400', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const value of [null, { a: 1 }, [1], 'x'.repeat(501)]) {
      assertInvalid(await api.put(entitlementUrl(facility, plan.id, 'k'), { value }), '/value');
    }
    assertInvalid(await api.put(entitlementUrl(facility, plan.id, 'k'), {}), '/value');
    assertInvalid(await api.put(entitlementUrl(facility, plan.id, 'k'), { value: 1, note: 'x' }), '/note');
    const infinite = await api.put(entitlementUrl(facility, plan.id, 'k'), '{"value":-1e400}');
    assertInvalid(infinite, '/value');
    const longest = await api.put(entitlementUrl(facility, plan.id, 'k'), { value: 'x'.repeat(500) });
    assert.equal(longest.status, 201);
  });

  test('a path key with a bad pattern is 400 naming key', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const key of ['_guest', '.guest', 'x'.repeat(65), 'guest%20passes', 'g%C3%A4ste']) {
      assertInvalid(await api.put(entitlementUrl(facility, plan.id, key), { value: 1 }), 'key');
      assertInvalid(await api.delete(entitlementUrl(facility, plan.id, key)), 'key');
    }
    const longest = await api.put(entitlementUrl(facility, plan.id, 'x'.repeat(64)), { value: 1 });
    assert.equal(longest.status, 201, longest.text);
  });

  test('DELETE one answers 204 with an empty body and removes only that key', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 1 });
    const response = await api.delete(entitlementUrl(facility, plan.id, 'guest_passes_per_month'));
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.deepEqual(await listed(facility, plan.id), [
      { key: 'ball_machine_access', value: true },
      { key: 'court_booking_window_days', value: 7 },
    ]);
  });

  test('DELETE of an absent key is 404 entitlement_not_found', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 1 });
    const response = await api.delete(entitlementUrl(facility, plan.id, 'sauna'));
    assertProblem(response, 404, 'entitlement_not_found');
    assertProblem(
      await api.delete(entitlementUrl(facility, plan.id, 'Ball_machine_access')),
      404,
      'entitlement_not_found',
    );
    assert.equal((await listed(facility, plan.id)).length, 3);
    assert.equal((await api.delete(entitlementUrl(facility, plan.id, 'ball_machine_access'))).status, 204);
    assertProblem(
      await api.delete(entitlementUrl(facility, plan.id, 'ball_machine_access')),
      404,
      'entitlement_not_found',
    );
  });

  test("an unknown plan, or another facility's, is 404 plan_not_found for PUT one and DELETE one", async () => {
    const owner = api.newFacility();
    const stranger = api.newFacility();
    const plan = await createPlan(owner, { template_id: 1 });
    for (const [facility, planId] of [
      [stranger, plan.id],
      [owner, 99_999_999],
    ]) {
      assertProblem(
        await api.put(entitlementUrl(facility, planId, 'sauna'), { value: true }),
        404,
        'plan_not_found',
      );
      assertProblem(
        await api.delete(entitlementUrl(facility, planId, 'guest_passes_per_month')),
        404,
        'plan_not_found',
      );
    }
    assert.equal((await listed(owner, plan.id)).length, 3);
  });
});
