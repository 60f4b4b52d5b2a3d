import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';

/** The app's clock: a test moves it on between writes, so that a write that changed updated_at would show it. */
const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'plans: soft and hard delete',
  (api) => {
    const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;
    const planUrl = (facility: number, id: number) => `${plansUrl(facility)}/${id}`;
    const entitlementsUrl = (facility: number, id: number) => `${planUrl(facility, id)}/entitlements`;

    async function createPlan(facility: number, body: Record<string, unknown> = {}) {
      const response = await api.post(plansUrl(facility), { name: 'Gold', ...body });
      assert.equal(response.status, 201, response.text);
      return response.body;
    }

    async function archivedPlan(facility: number, body: Record<string, unknown> = {}) {
      const plan = await createPlan(facility, body);
      assert.equal((await api.delete(planUrl(facility, plan.id))).status, 204);
      return (await api.get(planUrl(facility, plan.id))).body;
    }

    test('soft delete answers 204 with an empty body', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      const response = await api.delete(planUrl(facility, plan.id));
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
    });

    test('soft delete sets is_active false and deleted_at; the plan still reads 200', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      clock.advanceMs(60_000);
      const explicit = await api.delete(`${planUrl(facility, plan.id)}?hard_delete=false`);
      assert.equal(explicit.status, 204);
      const read = await api.get(planUrl(facility, plan.id));
      assert.equal(read.status, 200);
      const { is_active, deleted_at, updated_at, ...rest } = read.body;
      const { is_active: _a, deleted_at: _d, updated_at: _u, ...before } = plan;
      assert.deepEqual(rest, before);
      assert.equal(is_active, false);
      assert.match(deleted_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(deleted_at > plan.updated_at);
    });

    test('a soft-deleted plan is read-only: every write is 409 plan_archived', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility, { template_id: 1 });
      const entitlements = (await api.get(entitlementsUrl(facility, plan.id))).body;
      const writes = [
        () => api.patch(planUrl(facility, plan.id), { price_amount: 5 }),
        () => api.patch(planUrl(facility, plan.id), { is_active: false }),
        () => api.put(entitlementsUrl(facility, plan.id), { entitlements: [] }),
        () => api.put(`${entitlementsUrl(facility, plan.id)}/locker`, { value: 'own' }),
        () => api.put(`${entitlementsUrl(facility, plan.id)}/guest_passes_per_month`, { value: 9 }),
        () => api.delete(`${entitlementsUrl(facility, plan.id)}/guest_passes_per_month`),
      ];
      for (const write of writes) assertProblem(await write(), 409, 'plan_archived');
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
      assert.deepEqual((await api.get(entitlementsUrl(facility, plan.id))).body, entitlements);
    });

    test('PATCH {"is_active": true} restores a soft-deleted plan and clears deleted_at', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility);
      const response = await api.patch(planUrl(facility, plan.id), { is_active: true });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.is_active, true);
      assert.equal(response.body.deleted_at, null);
      assert.deepEqual((await api.get(plansUrl(facility))).body.plans, [response.body]);
      const write = await api.put(`${entitlementsUrl(facility, plan.id)}/locker`, { value: true });
      assert.equal(write.status, 201);
    });

    test('only exactly {"is_active": true} restores: a PATCH with other fields is 409 plan_archived', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility);
      const response = await api.patch(planUrl(facility, plan.id), { is_active: true, name: 'Gold 2026' });
      assertProblem(response, 409, 'plan_archived');
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
    });

    test('restoring a plan whose name was taken meanwhile is 409 plan_name_conflict', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility, { name: 'Gold' });
      await createPlan(facility, { name: 'GOLD' });
      assertProblem(
        await api.patch(planUrl(facility, plan.id), { is_active: true }),
        409,
        'plan_name_conflict',
      );
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
    });

    test('a second soft delete answers 204 and changes nothing', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility);
      clock.advanceMs(60_000);
      const again = await api.delete(planUrl(facility, plan.id));
      assert.equal(again.status, 204);
      assert.equal(again.text, '');
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
    });

    test('hard delete removes the plan and its entitlements', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { template_id: 1 });
      const response = await api.delete(`${planUrl(facility, plan.id)}?hard_delete=true`);
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assertProblem(await api.get(planUrl(facility, plan.id)), 404, 'plan_not_found');
      assertProblem(await api.get(entitlementsUrl(facility, plan.id)), 404, 'plan_not_found');
      assert.deepEqual((await api.get(`${plansUrl(facility)}?include_inactive=true`)).body.plans, []);
      assertProblem(
        await api.delete(`${planUrl(facility, plan.id)}?hard_delete=true`),
        404,
        'plan_not_found',
      );
    });

    test('hard delete frees the name', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { name: 'Gold' });
      assert.equal((await api.delete(`${planUrl(facility, plan.id)}?hard_delete=true`)).status, 204);
      assert.equal((await api.post(plansUrl(facility), { name: 'Gold' })).status, 201);
    });

    test('hard delete of an unknown plan is 404 plan_not_found', async () => {
      const facility = api.newFacility();
      assertProblem(
        await api.delete(`${planUrl(facility, 123_456_789)}?hard_delete=true`),
        404,
        'plan_not_found',
      );
    });

    test('hard delete works on a soft-deleted plan', async () => {
      const facility = api.newFacility();
      const plan = await archivedPlan(facility, { template_id: 4 });
      assert.equal((await api.delete(`${planUrl(facility, plan.id)}?hard_delete=true`)).status, 204);
      assertProblem(await api.get(planUrl(facility, plan.id)), 404, 'plan_not_found');
    });

    test('hard_delete takes only true or false', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      for (const value of ['abc', '1', 'yes', '']) {
        assertInvalid(await api.delete(`${planUrl(facility, plan.id)}?hard_delete=${value}`), 'hard_delete');
      }
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
    });

    test('hard delete is 409 plan_in_use while a member refers to the plan, removed members included', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility, { template_id: 1 });
      const member = await api.post(`/admin/facilities/${facility}/members`, {
        first_name: 'A',
        plan_id: plan.id,
      });
      assert.equal(member.status, 201, member.text);
      const hardDelete = () => api.delete(`${planUrl(facility, plan.id)}?hard_delete=true`);
      assertProblem(await hardDelete(), 409, 'plan_in_use');
      const memberUrl = `/admin/facilities/${facility}/members/${member.body.id}`;
      assert.equal((await api.delete(memberUrl)).status, 204);
      assertProblem(await hardDelete(), 409, 'plan_in_use');
      assert.deepEqual((await api.get(planUrl(facility, plan.id))).body, plan);
      assert.equal((await api.get(entitlementsUrl(facility, plan.id))).body.entitlements.length, 3);
      assert.equal((await api.delete(`${memberUrl}?hard_delete=true`)).status, 204);
      assert.equal((await hardDelete()).status, 204);
    });

    test('a plan in use can still be soft-deleted', async () => {
      const facility = api.newFacility();
      const plan = await createPlan(facility);
      await api.post(`/admin/facilities/${facility}/members`, { first_name: 'A', plan_id: plan.id });
      assert.equal((await api.delete(planUrl(facility, plan.id))).status, 204);
      assert.equal((await api.get(planUrl(facility, plan.id))).body.is_active, false);
    });
  },
  {},
  { now: clock.now },
);
