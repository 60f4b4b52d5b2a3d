/**
 * Issue 37, point 6: a member's `allowed_transitions` offers `frozen`, and a
 * PATCH to `frozen` is then answered 200, also for a member with a freeze
 * earlier today or one planned later (both were 409 `freeze_overlap`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect, testClock } from '../../../../test/harness.js';
import { runSchedule } from '../member-schedule.fixtures.js';

const clock = testClock('2026-04-10T09:00:00.000Z');

describeEachDialect(
  'a PATCH to frozen does what allowed_transitions offers',
  (api) => {
    async function newMember() {
      const facility = api.newFacility();
      const created = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann' });
      assert.equal(created.status, 201, created.text);
      const url = `/admin/facilities/${facility}/members/${created.body.id}`;
      return { facility, url, freezes: `${url}/freezes` };
    }
    /** The member as a read shows it, having checked that it is offered `frozen`. */
    async function offeredFrozen(url: string) {
      const read = await api.get(url);
      assert.equal(read.status, 200);
      assert.ok(read.body.allowed_transitions.includes('frozen'), JSON.stringify(read.body));
      return read.body;
    }
    async function moveTo(url: string, status: string) {
      const moved = await api.patch(url, { status });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.status, status);
      return moved.body;
    }
    /** The member's freezes as [starts_on, ends_on], by date (the list is by id). */
    const spans = async (url: string) =>
      (await api.get(url)).body.freezes
        .map((f: { starts_on: string; ends_on: string | null }) => [f.starts_on, f.ends_on])
        .sort((a: string[], b: string[]) => (a[0] < b[0] ? -1 : 1));

    test('frozen, active and frozen again on one day: the freeze that ended today is under way again', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const member = await newMember();
      await moveTo(member.url, 'frozen');
      await moveTo(member.url, 'active');
      await offeredFrozen(member.url);
      await moveTo(member.url, 'frozen');
      assert.deepEqual(await spans(member.freezes), [['2026-04-10', null]], 'one freeze, open-ended again');

      clock.set('2026-04-12T09:00:00.000Z');
      assert.equal((await api.get(member.url)).body.status, 'frozen');
      await moveTo(member.url, 'active');
      assert.deepEqual(await spans(member.freezes), [['2026-04-10', '2026-04-12']]);
    });

    test('removed while frozen, restored and frozen again the same day', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const member = await newMember();
      await moveTo(member.url, 'frozen');
      assert.equal((await api.delete(member.url)).status, 204);
      await moveTo(member.url, 'active');
      await offeredFrozen(member.url);
      await moveTo(member.url, 'frozen');
      assert.deepEqual(await spans(member.freezes), [['2026-04-10', null]]);
    });

    test('with a freeze planned later: frozen from today, and frozen through the planned freeze', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const member = await newMember();
      const planned = await api.post(member.freezes, { starts_on: '2026-04-20', ends_on: '2026-04-21' });
      assert.equal(planned.status, 201);
      await offeredFrozen(member.url);
      await moveTo(member.url, 'frozen');
      assert.deepEqual(await spans(member.freezes), [
        ['2026-04-10', null],
        ['2026-04-20', '2026-04-21'],
      ]);

      clock.set('2026-04-20T09:00:00.000Z');
      await runSchedule(api.app);
      const during = (await api.get(member.url)).body;
      assert.equal(during.status, 'frozen');
      assert.deepEqual(
        await spans(member.freezes),
        [
          ['2026-04-10', '2026-04-19'],
          ['2026-04-20', '2026-04-21'],
        ],
        'the open-ended freeze gives way to the planned one',
      );
      clock.set('2026-04-22T09:00:00.000Z');
      await runSchedule(api.app);
      const after = (await api.get(member.url)).body;
      assert.deepEqual([after.status, after.status_reason], ['active', 'freeze_ended']);
    });

    test('with a freeze planned later, back to active before it: the planned freeze still comes', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const member = await newMember();
      await api.post(member.freezes, { starts_on: '2026-04-20', ends_on: '2026-04-21' });
      await moveTo(member.url, 'frozen');
      clock.set('2026-04-14T09:00:00.000Z');
      await moveTo(member.url, 'active');
      clock.set('2026-04-20T09:00:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'frozen');
      assert.deepEqual(await spans(member.freezes), [
        ['2026-04-10', '2026-04-14'],
        ['2026-04-20', '2026-04-21'],
      ]);
    });

    test('a page of members offers frozen to each, and each PATCH to frozen succeeds', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const url = (id: number) => `/admin/facilities/${facility}/members/${id}`;
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await api.post(`/admin/facilities/${facility}/members`, { first_name: `M${i}` })).body.id);
      }
      await moveTo(url(ids[0]), 'frozen');
      await moveTo(url(ids[0]), 'active');
      await api.post(`${url(ids[1])}/freezes`, { starts_on: '2026-05-01', ends_on: '2026-05-02' });
      const page = (await api.get(`/admin/facilities/${facility}/members`)).body.members;
      for (const member of page) {
        assert.ok(member.allowed_transitions.includes('frozen'), member.id);
        await moveTo(url(member.id), 'frozen');
      }
    });
  },
  {},
  { now: clock.now },
);
