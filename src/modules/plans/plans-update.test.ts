import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';

const BAD_IDS = ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', String(2 ** 53)];

/** The app's clock: a test moves it on between writes, so that a write that changed updated_at would show it. */
const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'plans: read and update',
  (api) => {
    const plansUrl = (facility: number | string) => `/admin/facilities/${facility}/plans`;
    const planUrl = (facility: number | string, id: number | string) => `${plansUrl(facility)}/${id}`;

    async function createPlan(facility: number, body: Record<string, unknown> = {}) {
      const response = await api.post(plansUrl(facility), { name: 'Gold', ...body });
      assert.equal(response.status, 201, response.text);
      return response.body;
    }

    test('GET answers the plan', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { price_amount: 4200, sport_id: 3 });
      const response = await api.get(planUrl(facility, plan.id));
      assert.equal(response.status, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      assert.deepEqual(response.body, plan);
    });

    test('an unknown plan is 404 plan_not_found', async () => {
      const facility = api.newFacility();
      for (const id of [99_999_999, 2 ** 53 - 1]) {
        assertProblem(await api.get(planUrl(facility, id)), 404, 'plan_not_found');
        assertProblem(await api.patch(planUrl(facility, id), { name: 'X' }), 404, 'plan_not_found');
        assertProblem(await api.delete(planUrl(facility, id)), 404, 'plan_not_found');
      }
    });

    test("another facility's plan is 404 plan_not_found for GET, PATCH and DELETE, and stays as it was", async () => {
      const owner = api.newFacility();
      const stranger = api.newFacility();
      const plan = await createPlan(owner);
      assertProblem(await api.get(planUrl(stranger, plan.id)), 404, 'plan_not_found');
      assertProblem(await api.patch(planUrl(stranger, plan.id), { name: 'Stolen' }), 404, 'plan_not_found');
      assertProblem(await api.delete(planUrl(stranger, plan.id)), 404, 'plan_not_found');
      assertProblem(
        await api.delete(`${planUrl(stranger, plan.id)}?hard_delete=true`),
        404,
        'plan_not_found',
      );
      assert.deepEqual((await api.get(planUrl(owner, plan.id))).body, plan);
    });

    test('a plan id that is not a positive integer is 400 naming plan_id', async () => {
      const facility = api.newFacility();
      for (const id of BAD_IDS) {
        const body = assertInvalid(await api.get(planUrl(facility, id)), 'plan_id');
        assert.equal(body.errors[0].location, 'path');
        assertInvalid(await api.patch(planUrl(facility, id), { name: 'X' }), 'plan_id');
        assertInvalid(await api.delete(planUrl(facility, id)), 'plan_id');
      }
    });

    test('a facility id that is not a positive integer is 400 naming facility_id', async () => {
      for (const id of BAD_IDS) {
        assertInvalid(await api.get(plansUrl(id)), 'facility_id');
        assertInvalid(await api.post(plansUrl(id), { name: 'X' }), 'facility_id');
        assertInvalid(await api.get(planUrl(id, 1)), 'facility_id');
      }
    });

    test('PATCH changes only the fields sent', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { description: 'Old', sport_id: 4, price_amount: 1000 });
      clock.advanceMs(60_000);
      const response = await api.patch(planUrl(facility, plan.id), { price_amount: 1500, description: null });
      assert.equal(response.status, 200, response.text);
      const { updated_at, ...rest } = response.body;
      const { updated_at: before, ...unchanged } = plan;
      assert.deepEqual(rest, { ...unchanged, price_amount: 1500, description: null });
      assert.ok(updated_at > before, `${updated_at} should be after ${before}`);
      assert.equal(updated_at, clock.now().toISOString());
      assert.equal(response.body.created_at, plan.created_at);
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, response.body);
    });

    test('PATCH {} is a no-op that answers the plan and keeps updated_at', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      clock.advanceMs(60_000);
      const response = await api.patch(planUrl(facility, plan.id), {});
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, plan);
    });

    test('PATCH with the current values keeps updated_at', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { description: 'Same', sport_id: 2, max_members: 10 });
      clock.advanceMs(60_000);
      const { id, facility_id, template_id, created_at, updated_at, deleted_at, ...current } = plan;
      const response = await api.patch(planUrl(facility, plan.id), { ...current, name: '  Gold  ' });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, plan);
    });

    test('PATCH trims the name and keeps it unique: 409 plan_name_conflict', async () => {
      const facility = api.newFacility();
      await createPlan(facility, { name: 'Gold' });
      const silver = await createPlan(facility, { name: 'Silver' });
      assertProblem(
        await api.patch(planUrl(facility, silver.id), { name: ' GOLD ' }),
        409,
        'plan_name_conflict',
      );
      assert.equal((await api.get(planUrl(facility, silver.id))).body.name, 'Silver');
      const renamed = await api.patch(planUrl(facility, silver.id), { name: '  Platinum ' });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.name, 'Platinum');
    });

    test('PATCH may change only the case of its own name', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { name: 'gold' });
      const response = await api.patch(planUrl(facility, plan.id), { name: 'Gold' });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.name, 'Gold');
    });

    test('PATCH is_active false deactivates without deleting; true reactivates', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      const off = await api.patch(planUrl(facility, plan.id), { is_active: false });
      assert.equal(off.status, 200);
      assert.equal(off.body.is_active, false);
      assert.equal(off.body.deleted_at, null);
      assert.deepEqual((await api.get(plansUrl(facility))).body.plans, []);
      const on = await api.patch(planUrl(facility, plan.id), { is_active: true });
      assert.equal(on.body.is_active, true);
      assert.deepEqual((await api.get(plansUrl(facility))).body.plans, [on.body]);
    });
  },
  {},
  { now: clock.now },
);
