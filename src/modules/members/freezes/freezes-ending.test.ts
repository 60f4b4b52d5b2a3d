/**
 * Ending a dated freeze through the HTTP API, on a clock the tests move:
 * cancelling a planned one, one under way, one that has ended (refused); the
 * move to frozen and back; a frozen member's seat; a term that ends during a
 * freeze. Planning and reading: freezes.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, testClock } from '../../../../test/harness.js';
import { runSchedule } from '../member-schedule.fixtures.js';
import { freezeRequests } from './freezes.fixtures.js';

const clock = testClock('2026-02-20T12:00:00.000Z');

describeEachDialect(
  'freezes: ending one',
  (api) => {
    const { membersUrl, setPolicy, newMember, freeze } = freezeRequests(api);

    test('DELETE of a planned freeze: it never starts; again changes nothing', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const planned = await freeze(member.freezes, { starts_on: '2026-05-01', ends_on: '2026-05-03' });
      assert.equal((await api.delete(`${member.freezes}/${planned.id}`)).status, 204);
      assert.equal((await api.delete(`${member.freezes}/${planned.id}`)).status, 204);
      const [listed] = (await api.get(member.freezes)).body.freezes;
      assert.equal(listed.cancelled_at, '2026-04-10T09:00:00.000Z');
      clock.set('2026-05-02T09:00:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'active');
      // Its days no longer count, and they are free for another freeze.
      await freeze(member.freezes, { starts_on: '2026-05-02', ends_on: '2026-05-03' });
      assertProblem(await api.delete(`${member.freezes}/999999`), 404, 'freeze_not_found');
    });

    test('DELETE mid-freeze ends it today: the member is active tomorrow', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const running = await freeze(member.freezes, { starts_on: '2026-04-10', ends_on: '2026-04-30' });
      clock.set('2026-04-15T09:00:00.000Z');
      assert.equal((await api.delete(`${member.freezes}/${running.id}`)).status, 204);
      const [listed] = (await api.get(member.freezes)).body.freezes;
      assert.deepEqual([listed.ends_on, listed.cancelled_at], ['2026-04-15', '2026-04-15T09:00:00.000Z']);
      assert.equal((await api.get(member.url)).body.status, 'frozen');
      clock.set('2026-04-16T00:00:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'active');
      clock.set('2026-04-20T00:00:00.000Z');
      const ended = await api.delete(`${member.freezes}/${running.id}`);
      assert.equal(ended.status, 204, 'a cancelled freeze cancelled again changes nothing');
    });

    test('PATCH to frozen opens an open-ended freeze that counts and closes on the way back', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { max_freeze_days_per_year: 5 });
      const member = await newMember(facility);
      const planned = await freeze(member.freezes, { starts_on: '2026-04-20', ends_on: '2026-04-21' });
      await api.delete(`${member.freezes}/${planned.id}`);
      assert.equal((await api.patch(member.url, { status: 'frozen' })).body.status, 'frozen');
      const open = (await api.get(member.freezes)).body.freezes[1];
      assert.deepEqual([open.starts_on, open.ends_on], ['2026-04-10', null]);
      clock.set('2026-04-12T09:00:00.000Z');
      // Three days so far (10 to 12 April): two are left.
      const over = await api.post(member.freezes, { starts_on: '2026-06-01', ends_on: '2026-06-03' });
      assert.match(assertProblem(over, 409, 'freeze_overlap').detail, /open-ended/);
      const back = await api.patch(member.url, { status: 'active' });
      assert.deepEqual([back.body.status, back.body.status_reason], ['active', null]);
      const closed = (await api.get(member.freezes)).body.freezes[1];
      assert.equal(closed.ends_on, '2026-04-12');
      const left = await api.post(member.freezes, { starts_on: '2026-06-01', ends_on: '2026-06-03' });
      assert.match(assertProblem(left, 422, 'freeze_limit_exceeded').detail, /only 2 of the policy's 5/);
      await freeze(member.freezes, { starts_on: '2026-06-01', ends_on: '2026-06-02' });
    });

    test('a frozen member keeps its seat, and returns to a full plan', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Small', max_members: 1 });
      const member = await newMember(facility, { plan_id: plan.body.id });
      await freeze(member.freezes, { starts_on: '2026-04-11', ends_on: '2026-04-12' });
      clock.set('2026-04-11T09:00:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'frozen');
      const other = await api.post(membersUrl(facility), { first_name: 'Bo', plan_id: plan.body.id });
      assertProblem(other, 409, 'plan_full');
      clock.set('2026-04-13T09:00:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'active');
      const members = await api.get(`${membersUrl(facility)}?plan_id=${plan.body.id}`);
      assert.equal(members.body.members.length, 1);
    });

    test('a term that ends during a freeze ends the freeze with it', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility, { ends_on: '2026-04-15' });
      await freeze(member.freezes, { starts_on: '2026-04-12', ends_on: '2026-04-20' });
      const later = await freeze(member.freezes, { starts_on: '2026-04-25', ends_on: '2026-04-26' });
      clock.set('2026-04-22T09:00:00.000Z');
      await runSchedule(api.app);
      const expired = await api.get(member.url);
      assert.deepEqual([expired.body.status, expired.body.status_reason], ['cancelled', 'expired']);
      const [first, second] = (await api.get(member.freezes)).body.freezes;
      assert.equal(first.ends_on, '2026-04-15');
      assert.equal(second.id, later.id);
      assert.equal(second.cancelled_at, '2026-04-22T09:00:00.000Z');
    });

    test('DELETE of a freeze that has ended is 409 invalid_status_transition and changes nothing', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const past = await freeze(member.freezes, { starts_on: '2026-04-10', ends_on: '2026-04-12' });
      clock.set('2026-04-20T09:00:00.000Z');
      await runSchedule(api.app);
      assertProblem(await api.delete(`${member.freezes}/${past.id}`), 409, 'invalid_status_transition');
      const [listed] = (await api.get(member.freezes)).body.freezes;
      assert.deepEqual([listed.ends_on, listed.cancelled_at], ['2026-04-12', null]);
      assert.equal((await api.get(member.url)).body.status, 'active');
    });
  },
  {},
  { now: clock.now },
);
