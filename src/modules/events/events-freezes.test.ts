/** The membership lifecycle in the change feed: freezes are events of their member. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect, testClock } from '../../../test/harness.js';
import { runSchedule } from '../members/member-schedule.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;
const clock = testClock('2026-03-01T12:00:00Z');

describeEachDialect(
  'events: freezes and the schedule',
  (api) => {
    const types = async (facility: number) => {
      const { events } = (await api.get(`${f(facility)}/events`)).body;
      return events as { type: string; data: Record<string, unknown> }[];
    };

    test('a planned freeze, the schedule starting it, and its cancellation are events of the member', async () => {
      clock.set('2026-03-01T12:00:00Z');
      const facility = api.newFacility();
      const member = await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
      const freezes = `${f(facility)}/members/${member.body.id}/freezes`;
      const freeze = await api.post(freezes, { starts_on: '2026-03-02', ends_on: '2026-03-10' });
      assert.equal(freeze.status, 201, freeze.text);
      clock.set('2026-03-03T12:00:00Z');
      await runSchedule(api.app);
      assert.equal((await api.get(`${f(facility)}/members/${member.body.id}`)).body.status, 'frozen');
      assert.equal((await api.delete(`${freezes}/${freeze.body.id}`)).status, 204);
      const events = await types(facility);
      assert.deepEqual(
        events.map((event) => event.type),
        [
          'member.created',
          'member.freeze_created',
          'member.freeze_updated',
          'member.status_changed',
          'member.freeze_cancelled',
        ],
      );
      assert.equal(events[1].data.id, freeze.body.id);
      assert.equal(events[2].data.state, 'under_way', 'the schedule started the freeze');
      assert.equal(events[3].data.status_reason, 'freeze_started');
      assert.equal(events[4].data.ends_on, '2026-03-03', 'a freeze under way ends today');
      assert.ok(!('next_change_on' in events[3].data), "the schedule's own bookkeeping is not shown");
    });
  },
  {},
  { now: clock.now },
);
