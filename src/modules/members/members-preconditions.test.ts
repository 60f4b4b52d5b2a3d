/**
 * "Concurrency and retries" for members: the ETag of every member response
 * and If-Match on PATCH and DELETE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, type TestResponse } from '../../../test/harness.js';

const STRONG_ETAG = /^"[A-Za-z0-9_-]+"$/;

function etagOf(response: TestResponse): string {
  const etag = response.headers.etag;
  assert.equal(typeof etag, 'string', `expected an ETag on ${response.status}: ${response.text}`);
  return etag as string;
}

describeEachDialect('members: ETag and If-Match', (api) => {
  const memberUrl = (facility: number, id: number) => `/admin/facilities/${facility}/members/${id}`;

  async function createMember(facility: number, body: Record<string, unknown> = {}) {
    const response = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: 'Ann',
      email: 'ann@example.com',
      ...body,
    });
    assert.equal(response.status, 201, response.text);
    return { member: response.body, etag: etagOf(response), url: memberUrl(facility, response.body.id) };
  }

  test('GET, POST and PATCH answer a strong ETag that equals the next GET', async () => {
    const { etag: created, url } = await createMember(api.newFacility());
    assert.match(created, STRONG_ETAG);
    assert.equal(etagOf(await api.get(url)), created);
    const patched = await api.patch(url, { last_name: 'Lee' });
    assert.equal(patched.status, 200, patched.text);
    assert.match(etagOf(patched), STRONG_ETAG);
    assert.equal(etagOf(await api.get(url)), etagOf(patched));
  });

  test('a member created with every field answers the same ETag as the next GET', async () => {
    const { etag, url } = await createMember(api.newFacility(), {
      last_name: 'Lee',
      phone: '+1 555 0100',
      date_of_birth: '1990-02-03',
      sport_id: 4,
      role: 'coach',
      status: 'pending',
      joined_on: '2024-01-31',
      notes: 'left-handed',
    });
    assert.equal(etagOf(await api.get(url)), etag);
  });

  test('every write gives a new ETag and a later updated_at, even writes within one millisecond', async () => {
    const { etag, member, url } = await createMember(api.newFacility());
    const etags = [etag];
    const times = [member.updated_at];
    for (let i = 0; i < 30; i++) {
      const patched = await api.patch(url, { notes: `note ${i}` });
      assert.equal(patched.status, 200, patched.text);
      etags.push(etagOf(patched));
      times.push(patched.body.updated_at);
    }
    assert.equal(new Set(etags).size, etags.length);
    for (let i = 1; i < times.length; i++)
      assert.ok(times[i] > times[i - 1], `${times[i]} after ${times[i - 1]}`);
    assertProblem(
      await api.patch(url, { notes: 'stale' }, { 'if-match': etags[29] }),
      412,
      'precondition_failed',
    );
  });

  test('the ETag changes with a real change and stays with a no-op', async () => {
    const { member, etag, url } = await createMember(api.newFacility());
    assert.equal(etagOf(await api.patch(url, {})), etag);
    assert.equal(etagOf(await api.patch(url, { first_name: member.first_name, status: 'active' })), etag);
    const changed = etagOf(await api.patch(url, { status: 'frozen' }));
    assert.notEqual(changed, etag);
    assert.equal(etagOf(await api.get(url)), changed);
  });

  test('a second soft delete keeps the ETag', async () => {
    const { etag, url } = await createMember(api.newFacility());
    assert.equal((await api.delete(url)).status, 204);
    const removed = etagOf(await api.get(url));
    assert.notEqual(removed, etag);
    assert.equal((await api.delete(url)).status, 204);
    assert.equal(etagOf(await api.get(url)), removed);
  });

  test('PATCH with a stale If-Match is 412 precondition_failed and changes nothing', async () => {
    const { etag: stale, url } = await createMember(api.newFacility());
    const current = await api.patch(url, { notes: 'first' });
    const refused = await api.patch(url, { notes: 'second', status: 'suspended' }, { 'if-match': stale });
    assertProblem(refused, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, current.body);
  });

  test('soft and hard DELETE with a stale If-Match are 412 and the member stays as it was', async () => {
    const { etag: stale, url } = await createMember(api.newFacility());
    const current = await api.patch(url, { notes: 'changed' });
    assertProblem(await api.delete(url, { 'if-match': stale }), 412, 'precondition_failed');
    assertProblem(
      await api.delete(`${url}?hard_delete=true`, { 'if-match': stale }),
      412,
      'precondition_failed',
    );
    const read = await api.get(url);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, current.body);
  });

  test('PATCH and DELETE with the current ETag succeed', async () => {
    const { etag, url } = await createMember(api.newFacility());
    const patched = await api.patch(url, { notes: 'vip' }, { 'if-match': etag });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.notes, 'vip');
    assert.equal((await api.delete(url, { 'if-match': etagOf(patched) })).status, 204);
    const removed = await api.get(url);
    assert.equal(removed.body.status, 'removed');
    assert.equal((await api.delete(`${url}?hard_delete=true`, { 'if-match': etagOf(removed) })).status, 204);
    assertProblem(await api.get(url), 404, 'member_not_found');
  });

  test('If-Match: * succeeds on PATCH and DELETE whatever the ETag', async () => {
    const { url } = await createMember(api.newFacility());
    await api.patch(url, { notes: 'a' });
    const patched = await api.patch(url, { notes: 'b' }, { 'if-match': '*' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await api.delete(`${url}?hard_delete=true`, { 'if-match': '*' })).status, 204);
    assertProblem(await api.get(url), 404, 'member_not_found');
  });

  test('a weak tag never matches, even with the current opaque value', async () => {
    const { member, etag, url } = await createMember(api.newFacility());
    const weak = `W/${etag}`;
    assertProblem(await api.patch(url, { notes: 'x' }, { 'if-match': weak }), 412, 'precondition_failed');
    assertProblem(await api.delete(url, { 'if-match': weak }), 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, member);
  });

  test('If-Match on a member that does not exist is 404 member_not_found', async () => {
    const url = memberUrl(api.newFacility(), 99_999_999);
    assertProblem(await api.patch(url, { notes: 'x' }, { 'if-match': '*' }), 404, 'member_not_found');
    assertProblem(await api.delete(url, { 'if-match': '*' }), 404, 'member_not_found');
  });

  test('two PATCHes at once with the same If-Match: exactly one 200 and one 412', async () => {
    const { etag, url } = await createMember(api.newFacility());
    const answers = await Promise.all([
      api.patch(url, { notes: 'one' }, { 'if-match': etag }),
      api.patch(url, { notes: 'two' }, { 'if-match': etag }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 412], answers.map((a) => a.text).join('\n'));
    const winner = answers.find((a) => a.status === 200) as TestResponse;
    assertProblem(answers.find((a) => a.status === 412) as TestResponse, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, winner.body);
  });
});
