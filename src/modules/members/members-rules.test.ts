import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { memberRequests, shiftDate } from './members.fixtures.js';

/**
 * Members: a unique email per facility, and dates against today in the
 * facility's time zone (on the app's test clock).
 */

/** The app's clock: "today" is the same day all through a test, whenever it runs. */
const clock = testClock('2026-08-14T12:00:00.000Z');
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(clock.now());

describeEachDialect(
  'members: unique emails and dates',
  (api) => {
    const { memberUrl, post, patch, read, createMember, setPolicy } = memberRequests(api);

    test('email is unique per facility ignoring case: 409 member_email_conflict on create and PATCH', async () => {
      const facility = api.newFacility();
      await createMember(facility, { first_name: 'A', email: 'ann@example.com' });
      const taken = await post(facility, { first_name: 'B', email: 'ANN@Example.COM' });
      assertProblem(taken, 409, 'member_email_conflict');
      const other = await createMember(facility, { first_name: 'C', email: 'c@example.com' });
      const changed = await patch(facility, other.id, { email: 'Ann@example.com' });
      assertProblem(changed, 409, 'member_email_conflict');
      assert.equal((await read(facility, other.id)).email, 'c@example.com');
    });

    test('the same email is allowed in another facility and after its holder is removed', async () => {
      const [facility, otherFacility] = [api.newFacility(), api.newFacility()];
      const holder = await createMember(facility, { first_name: 'A', email: 'ann@example.com' });
      await createMember(otherFacility, { first_name: 'A', email: 'ann@example.com' });
      assert.equal((await api.delete(memberUrl(facility, holder.id))).status, 204);
      const again = await createMember(facility, { first_name: 'B', email: 'Ann@example.com' });
      assert.equal(again.email, 'Ann@example.com');
    });

    test('date_of_birth may be today in the facility timezone but not in the future (400)', async () => {
      const facility = api.newFacility();
      await setPolicy(facility, { timezone: 'Pacific/Kiritimati' });
      const today = todayIn('Pacific/Kiritimati');
      const born = await createMember(facility, { first_name: 'A', date_of_birth: today });
      assert.equal(born.date_of_birth, today);
      const tomorrow = shiftDate(today, 0, 1);
      assertInvalid(await post(facility, { first_name: 'B', date_of_birth: tomorrow }), '/date_of_birth');
      const member = await createMember(facility);
      assertInvalid(await patch(facility, member.id, { date_of_birth: '2999-01-01' }), '/date_of_birth');
    });

    test('younger than the policy min_member_age is 422 member_too_young; exactly that age today passes', async () => {
      const facility = api.newFacility();
      await setPolicy(facility, { min_member_age: 18 });
      const eighteenToday = shiftDate(todayIn('UTC'), -18);
      const tooYoung = shiftDate(eighteenToday, 0, 1);
      const young = await post(facility, { first_name: 'A', date_of_birth: tooYoung });
      assertProblem(young, 422, 'member_too_young');
      const member = await createMember(facility, { first_name: 'B', date_of_birth: eighteenToday });
      assertProblem(await patch(facility, member.id, { date_of_birth: tooYoung }), 422, 'member_too_young');
      assert.equal((await read(facility, member.id)).date_of_birth, eighteenToday);
    });
  },
  {},
  { now: clock.now },
);
