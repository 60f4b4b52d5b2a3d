/**
 * The door's log: the list of check-ins and its filters, check-out (again,
 * of a denied one), re-entry after a check-out under anti-passback, and the
 * occupancy with its cutoff, on the app's test clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { doorRequests } from '../access-decisions/access-decisions.fixtures.js';

const clock = testClock('2026-04-08T10:00:00.000Z');

describeEachDialect(
  'check-ins',
  (api) => {
    const door = doorRequests(api);
    const { decided, codesOf } = door;
    async function setUp(policy: object = {}) {
      clock.set('2026-04-08T10:00:00.000Z');
      const facility = api.newFacility();
      if (Object.keys(policy).length > 0) await door.setPolicy(facility, policy);
      const plan = await door.newPlan(facility, {});
      const member = await door.newMember(facility, plan.id);
      return { facility, plan, member, url: `${door.facilityUrl(facility)}/check-ins` };
    }
    const checkOut = (url: string, id: number) => api.post(`${url}/${id}/check-out`);

    test('the list holds allowed and denied decisions by id, filtered by member, decision and time', async () => {
      const { facility, member, url } = await setUp();
      const first = await decided(facility, { member_id: member.id });
      clock.advanceMs(60_000);
      const unknown = await decided(facility, { credential: 'no-such-card' });
      const all = await api.get(url);
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(
        all.body.check_ins.map((c: { id: number }) => c.id),
        [first.check_in.id, unknown.check_in.id],
      );
      assert.deepEqual(all.body.check_ins[0], first.check_in);
      const ids = async (query: string) =>
        (await api.get(`${url}?${query}`)).body.check_ins.map((c: { id: number }) => c.id);
      assert.deepEqual(await ids(`member_id=${member.id}`), [first.check_in.id]);
      assert.deepEqual(await ids('decision=deny'), [unknown.check_in.id]);
      assert.deepEqual(await ids('since=2026-04-08T10:00:30.000Z'), [unknown.check_in.id]);
      assert.deepEqual(await ids('until=2026-04-08T10:00:30.000Z'), [first.check_in.id]);
    });

    test('check-out sets checked_out_at; again answers 200 unchanged', async () => {
      const { facility, member, url } = await setUp();
      const { check_in } = await decided(facility, { member_id: member.id });
      clock.advanceMs(3_600_000);
      const out = await checkOut(url, check_in.id);
      assert.equal(out.status, 200, out.text);
      assert.equal(out.body.checked_out_at, '2026-04-08T11:00:00.000Z');
      clock.advanceMs(60_000);
      const again = await checkOut(url, check_in.id);
      assert.deepEqual([again.status, again.body], [200, out.body]);
    });

    test('a denied check-in cannot be checked out (409 check_in_denied); an unknown one is 404', async () => {
      const { facility, url } = await setUp();
      const { check_in } = await decided(facility, { credential: 'no-such-card' });
      assertProblem(await checkOut(url, check_in.id), 409, 'check_in_denied');
      assertProblem(await checkOut(url, 999999), 404, 'check_in_not_found');
    });

    test('already_checked_in: anti-passback denies a second entry until the minutes pass', async () => {
      const { facility, member } = await setUp({ anti_passback_minutes: 30 });
      await decided(facility, { member_id: member.id });
      clock.advanceMs(10 * 60_000);
      const again = await decided(facility, { member_id: member.id });
      assert.deepEqual(codesOf(again), ['already_checked_in']);
      assert.equal(again.reasons[0].until, '2026-04-08T10:30:00.000Z');
      clock.set('2026-04-08T10:30:00.000Z');
      assert.equal((await decided(facility, { member_id: member.id })).decision, 'allow');
    });

    test('check-out, then re-entry is allowed at once under anti-passback', async () => {
      const { facility, member, url } = await setUp({ anti_passback_minutes: 30 });
      const { check_in } = await decided(facility, { member_id: member.id });
      clock.advanceMs(5 * 60_000);
      assert.equal((await checkOut(url, check_in.id)).status, 200);
      assert.equal((await decided(facility, { member_id: member.id })).decision, 'allow');
    });

    test('facility_full: present + 1 + guests above max_occupancy is denied; a check-out frees a place', async () => {
      const { facility, plan, member, url } = await setUp({ max_occupancy: 2 });
      const other = await door.newMember(facility, plan.id, { first_name: 'Bo' });
      const third = await door.newMember(facility, plan.id, { first_name: 'Cy' });
      const first = await decided(facility, { member_id: member.id });
      await decided(facility, { member_id: other.id });
      const full = await decided(facility, { member_id: third.id });
      assert.deepEqual(full.reasons, [
        { code: 'facility_full', message: 'The facility is full: 2 of 2 people are in.', until: null },
      ]);
      await checkOut(url, first.check_in.id);
      assert.equal((await decided(facility, { member_id: third.id })).decision, 'allow');
    });

    test('occupancy counts allowed check-ins not checked out, with guests, younger than the cutoff', async () => {
      const { facility, plan, member, url } = await setUp({
        max_occupancy: 50,
        occupancy_cutoff_minutes: 60,
      });
      const other = await door.newMember(facility, plan.id, { first_name: 'Bo' });
      await decided(facility, { member_id: member.id });
      await decided(facility, { credential: 'no-such-card' });
      clock.advanceMs(30 * 60_000);
      const second = await decided(facility, { member_id: other.id });
      const occupancy = `${door.facilityUrl(facility)}/occupancy`;
      const now = await api.get(occupancy);
      assert.deepEqual(now.body, {
        present: 2,
        guests: 0,
        total: 2,
        max_occupancy: 50,
        cutoff_minutes: 60,
        as_of: '2026-04-08T10:30:00.000Z',
      });
      clock.set('2026-04-08T11:00:00.001Z');
      assert.equal((await api.get(occupancy)).body.present, 1, 'the first is past the cutoff');
      await checkOut(url, second.check_in.id);
      assert.equal((await api.get(occupancy)).body.total, 0);
    });
  },
  {},
  { now: clock.now },
);
