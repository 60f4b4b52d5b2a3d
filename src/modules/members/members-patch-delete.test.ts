/**
 * Members: PATCH changes only what it is sent (a no-op keeps updated_at, on
 * the app's test clock), external_id stays unique, soft and hard delete, and
 * another facility's member is not there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';

const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'members: PATCH and DELETE',
  (api) => {
    const membersUrl = (facility: number | string) => `/admin/facilities/${facility}/members`;
    const memberUrl = (facility: number, id: number | string) => `${membersUrl(facility)}/${id}`;
    const patch = (facility: number, id: number | string, body: object) =>
      api.patch(memberUrl(facility, id), body);
    const read = async (facility: number, id: number) => (await api.get(memberUrl(facility, id))).body;
    async function createMember(facility: number, body: object = { first_name: 'Ann' }) {
      const response = await api.post(membersUrl(facility), body);
      assert.equal(response.status, 201, response.text);
      return response.body;
    }

    test('soft delete answers 204 with an empty body; the member is removed and still readable', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility);
      const response = await api.delete(memberUrl(facility, member.id));
      assert.deepEqual([response.status, response.text], [204, '']);
      const removed = await read(facility, member.id);
      assert.equal(removed.status, 'removed');
      assert.match(removed.deleted_at, /^\d{4}-\d{2}-\d{2}T.*Z$/);
      assert.equal(removed.status_changed_at, removed.deleted_at);
      assert.equal(removed.updated_at, removed.deleted_at);
    });

    test('a second soft delete is 204 and changes nothing', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility);
      assert.equal((await api.delete(memberUrl(facility, member.id))).status, 204);
      const removed = await read(facility, member.id);
      clock.advanceMs(60_000);
      const again = await api.delete(`${memberUrl(facility, member.id)}?hard_delete=false`);
      assert.deepEqual([again.status, again.text], [204, '']);
      assert.deepEqual(await read(facility, member.id), removed);
    });

    test('hard delete erases the member: 404 afterwards', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility);
      const hardDelete = () => api.delete(`${memberUrl(facility, member.id)}?hard_delete=true`);
      const response = await hardDelete();
      assert.deepEqual([response.status, response.text], [204, '']);
      assertProblem(await api.get(memberUrl(facility, member.id)), 404, 'member_not_found');
      assertProblem(await hardDelete(), 404, 'member_not_found');
    });

    test("another facility's member is 404 member_not_found for GET, PATCH and DELETE", async () => {
      const [facility, otherFacility] = [api.newFacility(), api.newFacility()];
      const member = await createMember(facility);
      const url = memberUrl(otherFacility, member.id);
      assertProblem(await api.get(url), 404, 'member_not_found');
      assertProblem(await api.patch(url, { first_name: 'Eve' }), 404, 'member_not_found');
      assertProblem(await api.delete(url), 404, 'member_not_found');
      assertProblem(await api.delete(`${url}?hard_delete=true`), 404, 'member_not_found');
      assert.deepEqual(await read(facility, member.id), member);
    });

    test('bad ids and hard_delete values are 400 naming the parameter', async () => {
      const facility = api.newFacility();
      for (const bad of ['abc', '0', '-1', '1.5', '1e3', '9007199254740992', '99999999999999999999']) {
        assertInvalid(await api.get(memberUrl(facility, bad)), 'member_id');
        assertInvalid(await api.get(membersUrl(bad)), 'facility_id');
        assertInvalid(await patch(facility, bad, {}), 'member_id');
        assertInvalid(await api.delete(memberUrl(facility, bad)), 'member_id');
      }
      const member = await createMember(facility);
      assertInvalid(await api.delete(`${memberUrl(facility, member.id)}?hard_delete=yes`), 'hard_delete');
      assert.equal((await read(facility, member.id)).status, 'active');
    });

    test('PATCH changes only the fields sent; {} and the current values keep updated_at', async () => {
      const facility = api.newFacility();
      const member = await createMember(facility, { first_name: 'Ann', last_name: 'Lee', email: 'a@b.io' });
      clock.advanceMs(60_000);
      const empty = await patch(facility, member.id, {});
      assert.deepEqual([empty.status, empty.body], [200, member]);
      const same = await patch(facility, member.id, {
        first_name: ' Ann ',
        last_name: 'Lee',
        email: 'a@b.io',
      });
      assert.deepEqual([same.status, same.body], [200, member]);
      const changed = await patch(facility, member.id, { last_name: 'Kim' });
      assert.deepEqual({ ...changed.body, updated_at: member.updated_at }, { ...member, last_name: 'Kim' });
      assert.equal(changed.body.updated_at, clock.now().toISOString());
    });

    test('external_id is unique per facility among members not removed: 409 member_external_id_conflict on PATCH', async () => {
      const facility = api.newFacility();
      await createMember(facility, { first_name: 'Ann', external_id: 'CRM-1' });
      const other = await createMember(facility, { first_name: 'Bo', external_id: 'CRM-2' });
      assertProblem(
        await patch(facility, other.id, { external_id: 'CRM-1' }),
        409,
        'member_external_id_conflict',
      );
      assert.deepEqual(await read(facility, other.id), other);
      assert.equal((await patch(facility, other.id, { external_id: 'CRM-3' })).body.external_id, 'CRM-3');
    });
  },
  {},
  { now: clock.now },
);
