/**
 * Access decisions that count: visit limits in each mode, guest passes (the
 * plan's number wins over the policy's), opening hours and closures, and
 * the edges of the facility's local day and week.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect, testClock } from '../../../test/harness.js';
import { doorRequests } from './access-decisions.fixtures.js';

// Wednesday 2026-04-08, 10:00 UTC = 12:00 in Berlin (CEST, UTC+2).
const clock = testClock('2026-04-08T10:00:00.000Z');

describeEachDialect(
  'access decisions: counts and hours',
  (api) => {
    const door = doorRequests(api);
    const { decided, codesOf } = door;
    async function setUp(entitlements: Record<string, unknown>, policy: object = {}) {
      clock.set('2026-04-08T10:00:00.000Z');
      const facility = api.newFacility();
      await door.setPolicy(facility, { timezone: 'Europe/Berlin', ...policy });
      const plan = await door.newPlan(facility, entitlements);
      const member = await door.newMember(facility, plan.id);
      return {
        facility,
        plan,
        member,
        enter: (body: object = {}) => decided(facility, { member_id: member.id, ...body }),
      };
    }

    test('visit_limit_reached (block): the visit over the weekly limit is denied until the week ends', async () => {
      const { enter } = await setUp({ visits_per_week: 2 });
      const first = await enter();
      assert.deepEqual(first.remaining.visits, {
        period: 'week',
        limit: 2,
        used: 0,
        left: 2,
        resets_at: '2026-04-12T22:00:00.000Z',
      });
      await enter();
      const third = await enter();
      assert.deepEqual([third.decision, codesOf(third)], ['deny', ['visit_limit_reached']]);
      assert.deepEqual(third.reasons[0], {
        code: 'visit_limit_reached',
        message: 'Ann has used all 2 visits of this week.',
        until: '2026-04-12T22:00:00.000Z',
      });
      const denied = await enter();
      assert.equal(denied.remaining.visits.used, 2, 'a denied decision is no visit');
    });

    test('visit_limit_reached (warn): listed, but the member is let in', async () => {
      const { enter } = await setUp({ visits_per_day: 1 }, { visit_limit_mode: 'warn' });
      await enter();
      const second = await enter();
      assert.deepEqual([second.decision, codesOf(second)], ['allow', ['visit_limit_reached']]);
      assert.equal(second.check_in.decision, 'allow');
    });

    test('visit limits (count): not listed, the balance still shows', async () => {
      const { enter } = await setUp({ visits_per_day: 1 }, { visit_limit_mode: 'count' });
      await enter();
      const second = await enter();
      assert.deepEqual([second.decision, second.reasons], ['allow', []]);
      assert.deepEqual([second.remaining.visits.used, second.remaining.visits.left], [1, 0]);
    });

    test('a per-day limit: 23:59 local is still the day, 00:01 local the next', async () => {
      const { enter } = await setUp({ visits_per_day: 1 });
      clock.set('2026-04-08T21:59:00.000Z'); // 23:59 in Berlin
      assert.equal((await enter()).decision, 'allow');
      clock.set('2026-04-08T21:59:30.000Z');
      assert.deepEqual(codesOf(await enter()), ['visit_limit_reached']);
      clock.set('2026-04-08T22:01:00.000Z'); // 00:01 on Thursday in Berlin
      const next = await enter();
      assert.equal(next.decision, 'allow');
      assert.equal(next.remaining.visits.resets_at, '2026-04-09T22:00:00.000Z');
    });

    test('the week starts on the policy week_starts_on, at local midnight', async () => {
      const { enter } = await setUp({ visits_per_week: 1 }, { week_starts_on: 'sunday' });
      clock.set('2026-04-11T21:30:00.000Z'); // Saturday 23:30 in Berlin
      const saturday = await enter();
      assert.equal(saturday.remaining.visits.resets_at, '2026-04-11T22:00:00.000Z');
      clock.set('2026-04-11T22:30:00.000Z'); // Sunday 00:30: a new week
      assert.equal((await enter()).decision, 'allow');
    });

    test("guest_passes_exhausted: more guests than passes left this month; the plan's number wins", async () => {
      const { enter } = await setUp({ guest_passes_per_month: 2 }, { guest_passes_per_month: 10 });
      const first = await enter({ guests: 1 });
      assert.deepEqual(first.remaining.guest_passes, {
        limit: 2,
        used: 0,
        left: 2,
        resets_at: '2026-04-30T22:00:00.000Z',
      });
      const tooMany = await enter({ guests: 2 });
      assert.deepEqual(tooMany.reasons, [
        {
          code: 'guest_passes_exhausted',
          message: 'Ann has 1 guest pass left this month, not 2.',
          until: '2026-04-30T22:00:00.000Z',
        },
      ]);
      assert.equal((await enter({ guests: 1 })).decision, 'allow');
    });

    test("guest passes: without the plan's entitlement the policy's number applies", async () => {
      const { enter } = await setUp({}, { guest_passes_per_month: 1 });
      assert.equal((await enter({ guests: 1 })).decision, 'allow');
      assert.deepEqual(codesOf(await enter({ guests: 1 })), ['guest_passes_exhausted']);
    });

    test('outside_opening_hours: closed now, until the next opening (local time)', async () => {
      const { enter } = await setUp(
        {},
        { opening_hours: { wednesday: [{ opens: '14:00', closes: '22:00' }] } },
      );
      const answer = await enter();
      assert.deepEqual(answer.reasons, [
        {
          code: 'outside_opening_hours',
          message: 'The facility is closed now.',
          until: '2026-04-08T12:00:00.000Z',
        },
      ]);
      clock.set('2026-04-08T12:00:00.000Z');
      assert.equal((await enter()).decision, 'allow');
    });

    test('outside_opening_hours: a closure closes the whole local day', async () => {
      const { enter } = await setUp(
        {},
        { closures: [{ starts_on: '2026-04-08', ends_on: '2026-04-08', reason: 'Floor cleaning' }] },
      );
      const answer = await enter();
      assert.deepEqual(
        [codesOf(answer), answer.reasons[0].message, answer.reasons[0].until],
        [['outside_opening_hours'], 'The facility is closed today.', '2026-04-08T22:00:00.000Z'],
      );
    });
  },
  {},
  { now: clock.now },
);
