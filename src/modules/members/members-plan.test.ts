import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { eventually } from '../../../test/eventually.js';
import { assertProblem, describeEachDialect, type TestResponse } from '../../../test/harness.js';

describeEachDialect('member plan', (api) => {
  const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;
  const memberUrl = (facility: number, id: number) => `${membersUrl(facility)}/${id}`;
  const post = (facility: number, body: object) => api.post(membersUrl(facility), body);
  const patch = (facility: number, id: number, body: object) => api.patch(memberUrl(facility, id), body);
  async function createMember(facility: number, body: object) {
    const response = await post(facility, { first_name: 'Ann', ...body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }
  async function createPlan(facility: number, body: object = {}) {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Plan', ...body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  test('plan_id must be an active, non-deleted plan of this facility, else 422 invalid_plan', async () => {
    const [facility, otherFacility] = [api.newFacility(), api.newFacility()];
    const plansUrl = `/admin/facilities/${facility}/plans`;
    const inactive = await createPlan(facility, { name: 'Inactive' });
    assert.equal((await api.patch(`${plansUrl}/${inactive.id}`, { is_active: false })).status, 200);
    const archived = await createPlan(facility, { name: 'Archived' });
    assert.equal((await api.delete(`${plansUrl}/${archived.id}`)).status, 204);
    const foreign = await createPlan(otherFacility);
    const member = await createMember(facility, {});
    for (const planId of [999_999_999, foreign.id, inactive.id, archived.id]) {
      assertProblem(await post(facility, { first_name: 'A', plan_id: planId }), 422, 'invalid_plan');
      assertProblem(await patch(facility, member.id, { plan_id: planId }), 422, 'invalid_plan');
    }
    assert.equal((await api.get(memberUrl(facility, member.id))).body.plan_id, null);
  });

  test('an active plan of this facility can be set and cleared with null', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const member = await createMember(facility, { plan_id: plan.id });
    assert.equal(member.plan_id, plan.id);
    assert.equal((await patch(facility, member.id, { plan_id: null })).body.plan_id, null);
  });

  test('a plan at max_members is 409 plan_full, on create and when moving a member onto it', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 2 });
    await createMember(facility, { plan_id: plan.id });
    await createMember(facility, { plan_id: plan.id, status: 'pending' });
    assertProblem(await post(facility, { first_name: 'C', plan_id: plan.id }), 409, 'plan_full');
    const outsider = await createMember(facility, {});
    assertProblem(await patch(facility, outsider.id, { plan_id: plan.id }), 409, 'plan_full');
    assert.equal((await api.get(memberUrl(facility, outsider.id))).body.plan_id, null);
  });

  test('cancelled and removed members do not hold a seat', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 2 });
    const cancelled = await createMember(facility, { plan_id: plan.id });
    const removed = await createMember(facility, { plan_id: plan.id });
    assert.equal((await patch(facility, cancelled.id, { status: 'cancelled' })).status, 200);
    assert.equal((await api.delete(memberUrl(facility, removed.id))).status, 204);
    await createMember(facility, { plan_id: plan.id });
    await createMember(facility, { plan_id: plan.id });
    assertProblem(await post(facility, { first_name: 'E', plan_id: plan.id }), 409, 'plan_full');
  });

  test('re-activating a cancelled member on a full plan is 409 plan_full', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 1 });
    const member = await createMember(facility, { plan_id: plan.id });
    assert.equal((await patch(facility, member.id, { status: 'cancelled' })).status, 200);
    await createMember(facility, { plan_id: plan.id });
    assertProblem(await patch(facility, member.id, { status: 'active' }), 409, 'plan_full');
    assert.equal((await api.get(memberUrl(facility, member.id))).body.status, 'cancelled');
  });

  test('a member coming back onto an archived or inactive plan is 422 invalid_plan and stays as it was', async () => {
    const facility = api.newFacility();
    const plansUrl = `/admin/facilities/${facility}/plans`;
    const inactive = await createPlan(facility, { name: 'Inactive' });
    const archived = await createPlan(facility, { name: 'Archived' });
    const comebacks: [string, number, string][] = [];
    for (const plan of [inactive, archived]) {
      const cancelled = await createMember(facility, { plan_id: plan.id });
      assert.equal((await patch(facility, cancelled.id, { status: 'cancelled' })).status, 200);
      comebacks.push([`cancelled on plan ${plan.name}`, cancelled.id, 'active']);
      const removed = await createMember(facility, { plan_id: plan.id });
      assert.equal((await api.delete(memberUrl(facility, removed.id))).status, 204);
      comebacks.push([`removed from plan ${plan.name}`, removed.id, 'active']);
      comebacks.push([`removed from plan ${plan.name}`, removed.id, 'pending']);
    }
    assert.equal((await api.patch(`${plansUrl}/${inactive.id}`, { is_active: false })).status, 200);
    assert.equal((await api.delete(`${plansUrl}/${archived.id}`)).status, 204);
    for (const [who, id, status] of comebacks) {
      const before = (await api.get(memberUrl(facility, id))).body;
      const refused = await patch(facility, id, { status });
      assert.equal(refused.status, 422, `${who} → ${status}: ${refused.status} ${refused.text}`);
      assertProblem(refused, 422, 'invalid_plan');
      assert.deepEqual((await api.get(memberUrl(facility, id))).body, before);
    }
  });

  test('a member keeps its seat through other changes on a full plan', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 1 });
    const member = await createMember(facility, { plan_id: plan.id });
    const response = await patch(facility, member.id, { status: 'frozen', notes: 'Injured' });
    assert.equal(response.status, 200, response.text);
    assert.equal((await patch(facility, member.id, { status: 'active' })).status, 200);
  });

  test('20 concurrent creates on a plan with max_members 5 admit exactly 5', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 5 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(facility, { first_name: `M${i}`, plan_id: plan.id })),
    );
    assert.equal(responses.filter((r) => r.status === 201).length, 5);
    for (const refused of responses.filter((r) => r.status !== 201)) assertProblem(refused, 409, 'plan_full');
    assert.equal((await api.get(`${membersUrl(facility)}?plan_id=${plan.id}`)).body.members.length, 5);
  });

  test('concurrent re-activations on a plan with 3 free seats admit exactly 3', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { max_members: 3 });
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const member = await createMember(facility, { plan_id: plan.id });
      assert.equal((await patch(facility, member.id, { status: 'cancelled' })).status, 200);
      ids.push(member.id);
    }
    const responses = await Promise.all(ids.map((id) => patch(facility, id, { status: 'active' })));
    assert.equal(responses.filter((r) => r.status === 200).length, 3);
    for (const refused of responses.filter((r) => r.status !== 200)) assertProblem(refused, 409, 'plan_full');
    const active = await api.get(`${membersUrl(facility)}?plan_id=${plan.id}&status=active`);
    assert.equal(active.body.members.length, 3);
  });

  test('a plan hard-deleted while a member joins it is 422 invalid_plan, not a database error', async (t) => {
    if (api.dialect !== 'postgres') {
      t.skip(
        'SQLite runs one write at a time: no delete can fall between the check of the plan and the write',
      );
      return;
    }
    const facility = api.newFacility();
    const member = await createMember(facility, {});
    const joins: [string, (planId: number) => Promise<TestResponse>][] = [
      ['create', (planId) => post(facility, { first_name: 'Bo', plan_id: planId })],
      ['PATCH', (planId) => patch(facility, member.id, { plan_id: planId })],
    ];
    for (const [write, join] of joins) {
      // With max_members the write reads the plan again under a lock: it waits there for the delete.
      const plan = await createPlan(facility, { name: `Doomed for ${write}`, max_members: 5 });
      // Committed once the write waits: the write then finds the plan gone.
      const { pending } = await api.app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('plans').where('id', '=', plan.id).execute();
        const pending = join(plan.id);
        await eventually(`the ${write} waiting for the delete's lock`, async () => {
          const { rows } = await sql<{
            waiting: number;
          }>`select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(trx);
          return rows[0].waiting > 0;
        });
        return { pending };
      });
      assertProblem(await pending, 422, 'invalid_plan');
    }
    assert.equal((await api.get(memberUrl(facility, member.id))).body.plan_id, null);
  });
});
