/**
 * The decision request itself: one of credential and member_id, dry runs
 * (with `at`) that record nothing, a retried decision that records one
 * check-in, the events in the feed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect, testClock } from '../../../test/harness.js';
import { doorRequests } from './access-decisions.fixtures.js';

const clock = testClock('2026-04-08T10:00:00.000Z');

describeEachDialect(
  'access decisions: the request',
  (api) => {
    const door = doorRequests(api);
    const { decided, codesOf } = door;
    async function setUp() {
      clock.set('2026-04-08T10:00:00.000Z');
      const facility = api.newFacility();
      const plan = await door.newPlan(facility, { visits_per_day: 1 });
      const member = await door.newMember(facility, plan.id);
      const checkIns = async () => (await api.get(`${door.facilityUrl(facility)}/check-ins`)).body.check_ins;
      const events = async () =>
        (await api.get(`${door.facilityUrl(facility)}/events`)).body.events as {
          type: string;
          data: Record<string, unknown>;
        }[];
      return { facility, member, checkIns, events };
    }

    test('exactly one of credential and member_id: both or neither is 400', async () => {
      const { facility, member } = await setUp();
      assertInvalid(await door.decide(facility, { credential: 'abc', member_id: member.id }), '/credential');
      assertInvalid(await door.decide(facility, {}), '/member_id');
      assertInvalid(await door.decide(facility, { member_id: member.id, guests: 21 }), '/guests');
    });

    test('at is only for dry runs: without dry_run it is 400', async () => {
      const { facility, member } = await setUp();
      assertInvalid(
        await door.decide(facility, { member_id: member.id, at: '2026-04-09T10:00:00.000Z' }),
        '/at',
      );
    });

    test('a dry run records nothing: no check-in, no event, last_check_in_at unchanged', async () => {
      const { facility, member, checkIns, events } = await setUp();
      const before = await events();
      const answer = await decided(facility, { member_id: member.id, dry_run: true });
      assert.deepEqual([answer.decision, answer.check_in, answer.dry_run], ['allow', null, true]);
      assert.deepEqual(await checkIns(), []);
      assert.deepEqual(await events(), before);
      const read = await api.get(`${door.facilityUrl(facility)}/members/${member.id}`);
      assert.equal(read.body.last_check_in_at, null);
      const again = await decided(facility, { member_id: member.id });
      assert.equal(again.decision, 'allow', 'the dry run used no visit');
    });

    test('a dry run at another instant decides as then', async () => {
      const { facility, member } = await setUp();
      await decided(facility, { member_id: member.id });
      const now = await decided(facility, { member_id: member.id, dry_run: true });
      assert.deepEqual(codesOf(now), ['visit_limit_reached']);
      const tomorrow = await decided(facility, {
        member_id: member.id,
        dry_run: true,
        at: '2026-04-09T08:00:00.000Z',
      });
      assert.deepEqual([tomorrow.decision, tomorrow.decided_at], ['allow', '2026-04-09T08:00:00.000Z']);
    });

    test('a retried decision with its Idempotency-Key gets the same answer and records one check-in', async () => {
      const { facility, member, checkIns } = await setUp();
      const headers = { 'idempotency-key': 'door-7-read-0001' };
      const first = await door.decide(facility, { member_id: member.id }, headers);
      assert.equal(first.status, 200, first.text);
      clock.advanceMs(1_000);
      const retry = await door.decide(facility, { member_id: member.id }, headers);
      assert.deepEqual([retry.status, retry.body], [200, first.body]);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal((await checkIns()).length, 1);
    });

    test('the feed gets access.allowed, access.denied and check_in.checked_out', async () => {
      const { facility, member, events } = await setUp();
      const allowed = await decided(facility, { member_id: member.id });
      const denied = await decided(facility, { member_id: member.id });
      const out = await api.post(`${door.facilityUrl(facility)}/check-ins/${allowed.check_in.id}/check-out`);
      const doorEvents = (await events()).filter(
        (e) => e.type.startsWith('access.') || e.type.startsWith('check_in.'),
      );
      assert.deepEqual(
        doorEvents.map((e) => [e.type, e.data.id]),
        [
          ['access.allowed', allowed.check_in.id],
          ['access.denied', denied.check_in.id],
          ['check_in.checked_out', allowed.check_in.id],
        ],
      );
      assert.deepEqual(doorEvents[1].data, denied.check_in);
      assert.deepEqual(doorEvents[2].data, out.body);
    });
  },
  {},
  { now: clock.now },
);
