/**
 * Fixed terms, scheduled cancellation, status_reason, allowed_transitions
 * and the waiver, on a clock the tests move (no test sleeps for a day).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { eventsOf } from '../audit/audit.fixtures.js';
import { runSchedule } from './member-schedule.fixtures.js';

const clock = testClock('2026-03-10T12:00:00.000Z');

describeEachDialect(
  'member lifecycle',
  (api) => {
    const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;
    const memberUrl = (facility: number, id: number) => `${membersUrl(facility)}/${id}`;
    const setPolicy = async (facility: number, body: object) =>
      assert.equal((await api.patch(`/admin/facilities/${facility}/policy`, body)).status, 200);
    async function createMember(facility: number, body: object = {}) {
      const response = await api.post(membersUrl(facility), { first_name: 'Ann', ...body });
      assert.equal(response.status, 201, response.text);
      return response.body;
    }

    test('joining a plan with duration_days ends the term after it, unless the body says otherwise', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      const plan = await api.post(`/admin/facilities/${facility}/plans`, {
        name: 'Year',
        duration_days: 365,
      });
      const planId = plan.body.id;
      assert.equal((await createMember(facility, { plan_id: planId })).ends_on, '2027-03-09');
      const joined = await createMember(facility, { plan_id: planId, joined_on: '2026-01-01' });
      assert.equal(joined.ends_on, '2026-12-31');
      assert.equal(
        (await createMember(facility, { plan_id: planId, ends_on: '2026-06-30' })).ends_on,
        '2026-06-30',
      );
      assert.equal((await createMember(facility, { plan_id: planId, ends_on: null })).ends_on, null);
      assert.equal((await createMember(facility)).ends_on, null, 'no plan, no term');
    });

    test('ends_on before joined_on is 400', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      assertInvalid(
        await api.post(membersUrl(facility), { first_name: 'A', ends_on: '2026-03-09' }),
        '/ends_on',
      );
      const member = await createMember(facility);
      assertInvalid(await api.patch(memberUrl(facility, member.id), { ends_on: '2026-03-01' }), '/ends_on');
    });

    test("the day after ends_on, in the facility's time zone, the member is cancelled as expired", async () => {
      // 23:30 on 31 March in New York is 03:30 on 1 April in UTC.
      clock.set('2026-03-31T12:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { timezone: 'America/New_York' });
      const member = await createMember(facility, { ends_on: '2026-03-31' });
      const url = memberUrl(facility, member.id);
      const before = await api.get(url);
      clock.set('2026-04-01T03:30:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(url)).body.status, 'active', 'still 31 March in New York');
      clock.set('2026-04-01T04:00:00.000Z');
      await runSchedule(api.app);
      const after = await api.get(url);
      assert.deepEqual([after.body.status, after.body.status_reason], ['cancelled', 'expired']);
      assert.equal(after.body.status_changed_at, '2026-04-01T04:00:00.000Z');
      assert.notEqual(after.headers.etag, before.headers.etag);
      assert.deepEqual(after.body.allowed_transitions, ['active']);
      const listed = await api.get(`${membersUrl(facility)}?status=cancelled`);
      assert.deepEqual(
        listed.body.members.map((m: { id: number }) => m.id),
        [member.id],
      );
      const [expiry] = (await eventsOf(api, facility, '?resource_type=member')).slice(-1);
      assert.deepEqual([expiry.api_key_name, expiry.api_key_id, expiry.request_id], ['system', null, null]);
      assert.deepEqual(expiry.changes.status, { before: 'active', after: 'cancelled' });
      assert.deepEqual(expiry.changes.status_reason, { before: null, after: 'expired' });
      assert.equal((await api.get(url)).headers.etag, after.headers.etag, 'applied once');
    });

    test('a read shows what is stored and changes nothing; the schedule job makes what is due', async () => {
      clock.set('2026-05-31T12:00:00.000Z');
      const facility = api.newFacility();
      const member = await createMember(facility, { ends_on: '2026-05-31' });
      const url = memberUrl(facility, member.id);
      const trail = async () => (await eventsOf(api, facility, '?resource_type=member')).length;
      const entries = await trail();
      clock.set('2026-06-01T00:00:00.000Z');
      const stored = await api.get(url);
      assert.deepEqual([stored.body.status, stored.body.status_reason], ['active', null]);
      const listed = await api.get(`${membersUrl(facility)}?status=active`);
      assert.deepEqual(
        listed.body.members.map((m: { id: number }) => m.id),
        [member.id],
      );
      assert.equal((await api.get(`${url}/freezes`)).status, 200);
      assert.equal(await trail(), entries, 'no read wrote an audit entry');
      assert.equal((await api.get(url)).headers.etag, stored.headers.etag, 'nor changed the member');

      await runSchedule(api.app);
      assert.deepEqual((await api.get(`${membersUrl(facility)}?status=active`)).body.members, []);
      const cancelled = await api.get(`${membersUrl(facility)}?status=cancelled`);
      assert.deepEqual(
        cancelled.body.members.map((m: { id: number }) => m.id),
        [member.id],
      );
      assert.equal(await trail(), entries + 1, 'one entry, by the job');
    });

    test('a PATCH schedules a cancellation and may clear it before it is due', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      const member = await createMember(facility);
      const url = memberUrl(facility, member.id);
      assert.equal((await api.patch(url, { ends_on: '2026-03-31' })).body.ends_on, '2026-03-31');
      clock.set('2026-03-20T12:00:00.000Z');
      assert.equal((await api.patch(url, { ends_on: null })).body.ends_on, null);
      clock.set('2026-04-02T12:00:00.000Z');
      assert.equal((await api.get(url)).body.status, 'active');
      assert.equal(
        (await api.patch(url, { ends_on: '2026-04-01' })).body.status,
        'cancelled',
        'a past end ends it now',
      );
    });

    test('status_reason is given with a status move, and a move without one clears it', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      const member = await createMember(facility);
      const url = memberUrl(facility, member.id);
      const suspended = await api.patch(url, { status: 'suspended', status_reason: 'Payment overdue' });
      assert.deepEqual(
        [suspended.body.status, suspended.body.status_reason],
        ['suspended', 'Payment overdue'],
      );
      assertInvalid(await api.patch(url, { status_reason: 'x' }), '/status_reason');
      const active = await api.patch(url, { status: 'active' });
      assert.deepEqual([active.body.status, active.body.status_reason], ['active', null]);
    });

    test('allowed_transitions follows the status table and the policy', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      const member = await createMember(facility, { status: 'pending' });
      assert.deepEqual(member.allowed_transitions, ['active', 'cancelled']);
      const url = memberUrl(facility, member.id);
      await setPolicy(facility, { allow_freeze: false, require_waiver: true });
      assert.deepEqual((await api.get(url)).body.allowed_transitions, ['cancelled']);
      await api.patch(url, { waiver_signed_at: '2026-03-10T11:00:00.000Z' });
      const active = await api.patch(url, { status: 'active' });
      assert.deepEqual(active.body.allowed_transitions, ['suspended', 'cancelled']);
    });

    test('with require_waiver, becoming active without waiver_signed_at is 422 waiver_required', async () => {
      clock.set('2026-03-10T12:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { require_waiver: true });
      assertProblem(await api.post(membersUrl(facility), { first_name: 'A' }), 422, 'waiver_required');
      const pending = await createMember(facility, { status: 'pending' });
      const url = memberUrl(facility, pending.id);
      assertProblem(await api.patch(url, { status: 'active' }), 422, 'waiver_required');
      assert.equal((await api.get(url)).body.status, 'pending', 'nothing changed');
      const signed = await api.patch(url, { status: 'active', waiver_signed_at: '2026-03-10T11:59:00.000Z' });
      assert.deepEqual([signed.status, signed.body.status], [200, 'active']);
      const withWaiver = await createMember(facility, { waiver_signed_at: '2026-03-09T09:00:00.000Z' });
      assert.equal(withWaiver.status, 'active');
    });
  },
  {},
  { now: clock.now },
);
