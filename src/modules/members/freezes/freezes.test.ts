/** Dated freezes through the HTTP API, on a clock the tests move: planning one, and reading them. Ending one: freezes-ending.test.ts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../../test/harness.js';
import { eventsOf } from '../../audit/audit.fixtures.js';
import { runSchedule } from '../member-schedule.fixtures.js';
import { freezeRequests } from './freezes.fixtures.js';

const clock = testClock('2026-02-20T12:00:00.000Z');
const FREEZE_FIELDS = ['cancelled_at', 'created_at', 'ends_on', 'id', 'member_id', 'reason', 'starts_on'];

describeEachDialect(
  'freezes',
  (api) => {
    const { membersUrl, setPolicy, newMember, freeze } = freezeRequests(api);

    test('POST plans a freeze: 201, Location, every field', async () => {
      clock.set('2026-02-20T12:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const response = await api.post(member.freezes, {
        starts_on: '2026-03-01',
        ends_on: '2026-03-21',
        reason: 'Knee surgery',
      });
      assert.equal(response.status, 201, response.text);
      assert.deepEqual(Object.keys(response.body).sort(), FREEZE_FIELDS);
      assert.equal(response.headers.location, `${member.freezes}/${response.body.id}`);
      assert.deepEqual(response.body, {
        id: response.body.id,
        member_id: member.id,
        starts_on: '2026-03-01',
        ends_on: '2026-03-21',
        reason: 'Knee surgery',
        created_at: '2026-02-20T12:00:00.000Z',
        cancelled_at: null,
      });
      const listed = await api.get(member.freezes);
      assert.deepEqual(listed.body, { freezes: [response.body], next_cursor: null });
      assert.equal((await api.get(member.url)).body.status, 'active', 'not before starts_on');
    });

    test("a freeze starts and ends at midnight in the facility's time zone", async () => {
      // Auckland is UTC+13 in March: its 1 March begins at 11:00 UTC on 28 February.
      clock.set('2026-02-20T12:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { timezone: 'Pacific/Auckland' });
      const member = await newMember(facility);
      await freeze(member.freezes, { starts_on: '2026-03-01', ends_on: '2026-03-02' });
      clock.set('2026-02-28T10:59:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'active');
      clock.set('2026-02-28T11:00:00.000Z');
      await runSchedule(api.app);
      const frozen = await api.get(member.url);
      assert.deepEqual([frozen.body.status, frozen.body.status_reason], ['frozen', 'freeze_started']);
      clock.set('2026-03-02T10:59:00.000Z');
      await runSchedule(api.app);
      assert.equal((await api.get(member.url)).body.status, 'frozen', 'still 2 March in Auckland');
      clock.set('2026-03-02T11:00:00.000Z');
      await runSchedule(api.app);
      const back = await api.get(member.url);
      assert.deepEqual([back.body.status, back.body.status_reason], ['active', 'freeze_ended']);
      const trail = await eventsOf(api, facility, '?resource_type=member');
      const system = trail.filter((e) => e.api_key_name === 'system');
      assert.deepEqual(
        system.map((e) => [e.changes.status, e.occurred_at]),
        [
          [{ before: 'active', after: 'frozen' }, '2026-02-28T11:00:00.000Z'],
          [{ before: 'frozen', after: 'active' }, '2026-03-02T11:00:00.000Z'],
        ],
      );
    });

    test('a freeze that starts today freezes the member at once', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      await freeze(member.freezes, { starts_on: '2026-04-10', ends_on: '2026-04-12' });
      assert.equal((await api.get(member.url)).body.status, 'frozen');
    });

    test('dates: starts_on in the past or after ends_on is 400', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      assertInvalid(
        await api.post(member.freezes, { starts_on: '2026-04-09', ends_on: '2026-04-12' }),
        '/starts_on',
      );
      assertInvalid(
        await api.post(member.freezes, { starts_on: '2026-04-12', ends_on: '2026-04-11' }),
        '/ends_on',
      );
      assertInvalid(await api.post(member.freezes, { starts_on: '2026-04-12' }), '/ends_on');
      assert.deepEqual((await api.get(member.freezes)).body.freezes, []);
    });

    test('allow_freeze false is 409 freeze_not_allowed', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { allow_freeze: false });
      const member = await newMember(facility);
      const body = { starts_on: '2026-05-01', ends_on: '2026-05-02' };
      assertProblem(await api.post(member.freezes, body), 409, 'freeze_not_allowed');
    });

    test('a member that is not active or frozen is 409 invalid_status_transition', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility, { status: 'pending' });
      const body = { starts_on: '2026-05-01', ends_on: '2026-05-02' };
      assertProblem(await api.post(member.freezes, body), 409, 'invalid_status_transition');
    });

    test('overlapping another freeze is 409 freeze_overlap; touching it is fine', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      await freeze(member.freezes, { starts_on: '2026-05-10', ends_on: '2026-05-20' });
      for (const [starts_on, ends_on] of [
        ['2026-05-01', '2026-05-10'],
        ['2026-05-20', '2026-05-25'],
        ['2026-05-12', '2026-05-13'],
        ['2026-05-01', '2026-06-01'],
      ]) {
        const problem = assertProblem(
          await api.post(member.freezes, { starts_on, ends_on }),
          409,
          'freeze_overlap',
        );
        assert.match(problem.detail, /2026-05-10 to 2026-05-20/);
      }
      await freeze(member.freezes, { starts_on: '2026-05-21', ends_on: '2026-05-22' });
      await freeze(member.freezes, { starts_on: '2026-05-08', ends_on: '2026-05-09' });
    });

    test('the yearly limit holds at its edge and the detail says how many days are left', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      await setPolicy(facility, { max_freeze_days_per_year: 10 });
      const member = await newMember(facility);
      await freeze(member.freezes, { starts_on: '2026-05-01', ends_on: '2026-05-07' });
      const over = await api.post(member.freezes, { starts_on: '2026-06-01', ends_on: '2026-06-04' });
      assert.match(assertProblem(over, 422, 'freeze_limit_exceeded').detail, /only 3 of the policy's 10/);
      await freeze(member.freezes, { starts_on: '2026-06-01', ends_on: '2026-06-03' });
      const none = await api.post(member.freezes, { starts_on: '2026-07-01', ends_on: '2026-07-01' });
      assert.match(assertProblem(none, 422, 'freeze_limit_exceeded').detail, /only 0 of/);
      // Each calendar year has its own days; a freeze over New Year takes from both.
      await freeze(member.freezes, { starts_on: '2027-01-02', ends_on: '2027-01-10' });
      const spanning = await api.post(member.freezes, { starts_on: '2026-12-31', ends_on: '2027-01-01' });
      assert.match(assertProblem(spanning, 422, 'freeze_limit_exceeded').detail, /1 day in 2026/);
      await setPolicy(facility, { max_freeze_days_per_year: 11 });
      await freeze(member.freezes, { starts_on: '2026-12-31', ends_on: '2027-01-01' });
    });

    test('a retried POST with its Idempotency-Key plans one freeze; a hard-deleted member takes its freezes', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      const body = { starts_on: '2026-05-01', ends_on: '2026-05-02' };
      const key = { 'idempotency-key': `freeze-${facility}` };
      const first = await api.post(member.freezes, body, key);
      const again = await api.post(member.freezes, body, key);
      assert.deepEqual(
        [first.status, again.status, again.headers['idempotent-replayed']],
        [201, 201, 'true'],
      );
      assert.deepEqual(again.body, first.body);
      assert.equal((await api.get(member.freezes)).body.freezes.length, 1);
      assert.equal((await api.delete(`${member.url}?hard_delete=true`)).status, 204);
      assertProblem(await api.get(member.freezes), 404, 'member_not_found');
    });

    test('GET freezes pages by id; an unknown member is 404', async () => {
      clock.set('2026-04-10T09:00:00.000Z');
      const facility = api.newFacility();
      const member = await newMember(facility);
      for (const day of ['01', '03', '05']) {
        await freeze(member.freezes, { starts_on: `2026-05-${day}`, ends_on: `2026-05-${day}` });
      }
      const first = await api.get(`${member.freezes}?limit=2`);
      assert.equal(first.body.freezes.length, 2);
      const second = await api.get(`${member.freezes}?limit=2&cursor=${first.body.next_cursor}`);
      assert.deepEqual([second.body.freezes.length, second.body.next_cursor], [1, null]);
      assertProblem(await api.get(`${membersUrl(facility)}/999999/freezes`), 404, 'member_not_found');
      assertProblem(
        await api.get(`${membersUrl(api.newFacility())}/${member.id}/freezes`),
        404,
        'member_not_found',
      );
    });
  },
  {},
  { now: clock.now },
);
