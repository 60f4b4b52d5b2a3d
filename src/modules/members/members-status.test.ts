import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';

const STATUSES = ['pending', 'active', 'frozen', 'suspended', 'cancelled', 'removed'] as const;
type Status = (typeof STATUSES)[number];

/** The contract's status table: where PATCH may move a member from each status. */
const MOVES: Record<Status, Status[]> = {
  pending: ['active', 'cancelled'],
  active: ['frozen', 'suspended', 'cancelled'],
  frozen: ['active', 'cancelled'],
  suspended: ['active', 'cancelled'],
  cancelled: ['active'],
  removed: ['pending', 'active'],
};

/** The app's clock: a test moves it on between writes, so that a write that changed updated_at would show it. */
const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'member status moves',
  (api) => {
    const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;
    const memberUrl = (facility: number, id: number) => `${membersUrl(facility)}/${id}`;

    /**
     * A new member in the given status, read back as the API shows it: created
     * pending or active, moved from active to frozen, suspended or cancelled,
     * removed by DELETE.
     */
    async function memberIn(facility: number, status: Status, extra: object = {}) {
      const initial = status === 'pending' ? 'pending' : 'active';
      const created = await api.post(membersUrl(facility), { first_name: 'Ann', status: initial, ...extra });
      assert.equal(created.status, 201, created.text);
      const url = memberUrl(facility, created.body.id);
      if (status === 'removed') assert.equal((await api.delete(url)).status, 204);
      else if (status !== initial) {
        const moved = await api.patch(url, { status });
        assert.equal(moved.status, 200, moved.text);
      }
      const member = (await api.get(url)).body;
      assert.equal(member.status, status);
      return member;
    }

    test('the OpenAPI description of status holds this table, in the member and in the PATCH body', async () => {
      const doc = (await api.get('/openapi.json')).body;
      const item = doc.paths['/admin/facilities/{facility_id}/members/{member_id}'];
      const component = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
      const json = (content: { 'application/json': { schema: { $ref: string } } }) =>
        component(component(content['application/json'].schema.$ref).properties.status.$ref) as {
          description: string;
        };
      for (const status of [json(item.get.responses['200'].content), json(item.patch.requestBody.content)]) {
        for (const from of STATUSES) {
          assert.ok(
            status.description.includes(`| ${from} | ${MOVES[from].join(', ')} |`),
            status.description,
          );
        }
        assert.match(status.description, /freeze_not_allowed/);
      }
    });

    for (const from of STATUSES) {
      for (const to of MOVES[from]) {
        test(`${from} → ${to} is allowed and sets status_changed_at`, async () => {
          const facility = api.newFacility();
          const before = await memberIn(facility, from);
          clock.advanceMs(60_000);
          const response = await api.patch(memberUrl(facility, before.id), { status: to });
          assert.equal(response.status, 200, response.text);
          const after = response.body;
          assert.equal(after.status, to);
          assert.ok(after.status_changed_at > before.status_changed_at);
          assert.equal(after.status_changed_at, clock.now().toISOString());
          assert.equal(after.updated_at, after.status_changed_at);
          assert.equal(after.deleted_at, null);
          assert.deepEqual((await api.get(memberUrl(facility, before.id))).body, after);
        });
      }
    }

    for (const from of STATUSES) {
      const refused = STATUSES.filter((to) => to !== from && to !== 'removed' && !MOVES[from].includes(to));
      test(`${from} cannot move to ${refused.join(', ')}: 409 invalid_status_transition`, async () => {
        const facility = api.newFacility();
        const member = await memberIn(facility, from);
        for (const to of refused) {
          const response = await api.patch(memberUrl(facility, member.id), { status: to });
          assertProblem(response, 409, 'invalid_status_transition');
        }
        assert.deepEqual((await api.get(memberUrl(facility, member.id))).body, member);
      });
    }

    test('PATCH to removed is 409 invalid_status_transition: only DELETE removes', async () => {
      const facility = api.newFacility();
      for (const from of STATUSES.filter((s) => s !== 'removed')) {
        const member = await memberIn(facility, from);
        const response = await api.patch(memberUrl(facility, member.id), { status: 'removed' });
        assertProblem(response, 409, 'invalid_status_transition');
        assert.deepEqual((await api.get(memberUrl(facility, member.id))).body, member);
      }
    });

    test('moving to the same status is a no-op that keeps updated_at and status_changed_at', async () => {
      const facility = api.newFacility();
      for (const status of STATUSES) {
        const member = await memberIn(facility, status);
        clock.advanceMs(60_000);
        const response = await api.patch(memberUrl(facility, member.id), { status });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.body, member);
      }
    });

    test('concurrent moves are checked one after another: from active, only frozen or suspended wins', async () => {
      const facility = api.newFacility();
      const member = await memberIn(facility, 'active');
      const targets = Array.from({ length: 10 }, (_, i) => (i % 2 ? 'frozen' : 'suspended'));
      const responses = await Promise.all(
        targets.map((status) => api.patch(memberUrl(facility, member.id), { status })),
      );
      const final = (await api.get(memberUrl(facility, member.id))).body.status;
      responses.forEach((response, i) => {
        if (targets[i] === final) assert.equal(response.status, 200, response.text);
        else assertProblem(response, 409, 'invalid_status_transition');
      });
    });

    test('freezing while the policy has allow_freeze false is 409 freeze_not_allowed', async () => {
      const facility = api.newFacility();
      const policy = await api.patch(`/admin/facilities/${facility}/policy`, { allow_freeze: false });
      assert.equal(policy.status, 200);
      const member = await memberIn(facility, 'active');
      assertProblem(
        await api.patch(memberUrl(facility, member.id), { status: 'frozen' }),
        409,
        'freeze_not_allowed',
      );
      assert.deepEqual((await api.get(memberUrl(facility, member.id))).body, member);
      const pending = await memberIn(facility, 'pending');
      const skip = await api.patch(memberUrl(facility, pending.id), { status: 'frozen' });
      assertProblem(skip, 409, 'invalid_status_transition');
    });

    test('restoring a removed member clears deleted_at and lists it again', async () => {
      const facility = api.newFacility();
      const member = await memberIn(facility, 'removed');
      assert.notEqual(member.deleted_at, null);
      const listed = async () =>
        (await api.get(membersUrl(facility))).body.members.map((m: { id: number }) => m.id);
      assert.deepEqual(await listed(), []);
      const restored = await api.patch(memberUrl(facility, member.id), { status: 'pending' });
      assert.equal(restored.status, 200);
      assert.equal(restored.body.deleted_at, null);
      assert.deepEqual(await listed(), [member.id]);
    });

    test('restoring a member whose email is now taken is 409 member_email_conflict', async () => {
      const facility = api.newFacility();
      const removed = await memberIn(facility, 'removed', { email: 'ann@example.com' });
      await memberIn(facility, 'active', { email: 'ANN@example.com' });
      for (const status of ['pending', 'active']) {
        const response = await api.patch(memberUrl(facility, removed.id), { status });
        assertProblem(response, 409, 'member_email_conflict');
      }
      assert.deepEqual((await api.get(memberUrl(facility, removed.id))).body, removed);
    });

    test('restoring a member onto a full plan is 409 plan_full', async () => {
      const facility = api.newFacility();
      const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Solo', max_members: 1 });
      const removed = await memberIn(facility, 'removed', { plan_id: plan.body.id });
      await memberIn(facility, 'active', { plan_id: plan.body.id });
      assertProblem(await api.patch(memberUrl(facility, removed.id), { status: 'active' }), 409, 'plan_full');
      assert.equal((await api.get(memberUrl(facility, removed.id))).body.status, 'removed');
    });
  },
  {},
  { now: clock.now },
);
