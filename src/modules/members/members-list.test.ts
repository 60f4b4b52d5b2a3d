import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';

describeEachDialect('member list', (api) => {
  const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;

  async function addMember(facility: number, body: object) {
    const response = await api.post(membersUrl(facility), body);
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number; first_name: string };
  }

  /** First names of the members the list answers, in order, after checking the page shape. */
  async function listNames(facility: number, query = ''): Promise<string[]> {
    const response = await api.get(`${membersUrl(facility)}${query}`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(Object.keys(response.body).sort(), ['members', 'next_cursor']);
    assert.equal(response.body.next_cursor, null);
    return response.body.members.map((m: { first_name: string }) => m.first_name);
  }

  /**
   * A facility with members named after what sets them apart; members in
   * other facilities match every filter too, and must never show up.
   */
  async function seededFacility() {
    const [facility, otherFacility] = [api.newFacility(), api.newFacility()];
    const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold' });
    const planId = plan.body.id as number;
    const base = { sport_id: 1, role: 'member', status: 'active' };
    await addMember(facility, { ...base, first_name: 'Active' });
    await addMember(facility, { ...base, first_name: 'Pending', status: 'pending' });
    await addMember(facility, { ...base, first_name: 'Coach', role: 'coach', sport_id: 2 });
    await addMember(facility, { ...base, first_name: 'Staff', role: 'staff', plan_id: planId });
    await addMember(facility, { ...base, first_name: 'Admin', role: 'admin', sport_id: 2, plan_id: planId });
    const frozen = await addMember(facility, { ...base, first_name: 'Frozen' });
    await api.patch(`${membersUrl(facility)}/${frozen.id}`, { status: 'frozen' });
    const removed = await addMember(facility, { ...base, first_name: 'Removed', plan_id: planId });
    assert.equal((await api.delete(`${membersUrl(facility)}/${removed.id}`)).status, 204);
    await addMember(otherFacility, { ...base, first_name: 'Elsewhere' });
    return { facility, planId };
  }

  test('without filters: every member of the facility but removed ones, ordered by id', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility), ['Active', 'Pending', 'Coach', 'Staff', 'Admin', 'Frozen']);
    assert.deepEqual(await listNames(api.newFacility()), []);
  });

  test('sport_id filters exactly', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility, '?sport_id=2'), ['Coach', 'Admin']);
    assert.deepEqual(await listNames(facility, '?sport_id=3'), []);
  });

  test('status takes one value', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility, '?status=frozen'), ['Frozen']);
    assert.deepEqual(await listNames(facility, '?status=suspended'), []);
  });

  test('status takes a comma-separated list', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility, '?status=pending,frozen'), ['Pending', 'Frozen']);
  });

  test('removed members are listed only when the status filter names removed', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility, '?status=removed'), ['Removed']);
    assert.deepEqual(await listNames(facility, '?status=frozen,removed'), ['Frozen', 'Removed']);
    const response = await api.get(`${membersUrl(facility)}?status=removed`);
    assert.notEqual(response.body.members[0].deleted_at, null);
  });

  test('role takes one value or a comma-separated list', async () => {
    const { facility } = await seededFacility();
    assert.deepEqual(await listNames(facility, '?role=coach'), ['Coach']);
    assert.deepEqual(await listNames(facility, '?role=staff,admin'), ['Staff', 'Admin']);
  });

  test('plan_id filters exactly', async () => {
    const { facility, planId } = await seededFacility();
    assert.deepEqual(await listNames(facility, `?plan_id=${planId}`), ['Staff', 'Admin']);
    assert.deepEqual(await listNames(facility, `?plan_id=${planId + 1000}`), []);
  });

  test('filters combine with AND', async () => {
    const { facility, planId } = await seededFacility();
    assert.deepEqual(await listNames(facility, `?plan_id=${planId}&sport_id=2`), ['Admin']);
    assert.deepEqual(await listNames(facility, '?role=member&status=active,pending'), ['Active', 'Pending']);
    assert.deepEqual(await listNames(facility, `?role=member&plan_id=${planId}`), []);
    assert.deepEqual(await listNames(facility, `?status=removed&plan_id=${planId}&q=rem`), ['Removed']);
  });

  test('q is a case-insensitive part of first name, last name or email', async () => {
    const facility = api.newFacility();
    await addMember(facility, { first_name: 'Marianne', last_name: 'Olsen' });
    await addMember(facility, { first_name: 'Bob', last_name: 'Mariano' });
    await addMember(facility, { first_name: 'Carl', email: 'Carl.MARIA@example.com' });
    await addMember(facility, { first_name: 'Dora', last_name: 'Smith', email: 'dora@example.com' });
    assert.deepEqual(await listNames(facility, '?q=MARI'), ['Marianne', 'Bob', 'Carl']);
    assert.deepEqual(await listNames(facility, '?q=ann'), ['Marianne']);
    assert.deepEqual(await listNames(facility, '?q=olsen'), ['Marianne']);
    assert.deepEqual(await listNames(facility, '?q=%40EXAMPLE.com'), ['Carl', 'Dora']);
    assert.deepEqual(await listNames(facility, '?q=zzz'), []);
  });

  test('q folds the case and the accents of any letter, not only ASCII', async () => {
    const facility = api.newFacility();
    await addMember(facility, { first_name: 'Élodie', last_name: 'Öztürk' });
    await addMember(facility, { first_name: 'Elodie' });
    for (const q of ['Élo', 'élo', 'ÉLO', 'elo']) {
      assert.deepEqual(await listNames(facility, `?q=${encodeURIComponent(q)}`), ['Élodie', 'Elodie'], q);
    }
    for (const q of ['ÖZTÜRK', 'öztürk', 'ozturk']) {
      assert.deepEqual(await listNames(facility, `?q=${encodeURIComponent(q)}`), ['Élodie'], q);
    }
  });

  test('q treats wildcard characters (% _ \\ * ? [) literally', async () => {
    const facility = api.newFacility();
    await addMember(facility, { first_name: '100% fit' });
    await addMember(facility, { first_name: '1000 fit' });
    await addMember(facility, { first_name: 'Ann', email: 'ann_lee@example.com' });
    await addMember(facility, { first_name: 'Anna', email: 'annxlee@example.com' });
    await addMember(facility, { first_name: 'Back\\slash' });
    await addMember(facility, { first_name: 'Star*', last_name: 'Why? [x]' });
    const search = (q: string) => listNames(facility, `?q=${encodeURIComponent(q)}`);
    assert.deepEqual(await search('0%'), ['100% fit']);
    assert.deepEqual(await search('%'), ['100% fit']);
    assert.deepEqual(await search('n_l'), ['Ann']);
    assert.deepEqual(await search('_'), ['Ann']);
    assert.deepEqual(await search('k\\s'), ['Back\\slash']);
    for (const q of ['*', 'r*', '?', 'y?', '[', '[x]']) assert.deepEqual(await search(q), ['Star*'], q);
  });

  test('an unknown status or role value is 400 naming the parameter', async () => {
    const facility = api.newFacility();
    for (const query of [
      'status=asleep',
      'status=active,asleep',
      'status=',
      'status=Active',
      'status=active,',
    ]) {
      assertInvalid(await api.get(`${membersUrl(facility)}?${query}`), 'status');
    }
    for (const query of ['role=owner', 'role=coach,owner', 'role=', 'role=COACH']) {
      assertInvalid(await api.get(`${membersUrl(facility)}?${query}`), 'role');
    }
  });

  test('bad numeric filters, unknown parameters and limits out of 1..1000 are 400', async () => {
    const facility = api.newFacility();
    for (const [query, field] of [
      ['sport_id=0', 'sport_id'],
      ['plan_id=abc', 'plan_id'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=1.5', 'limit'],
      ['colour=red', 'colour'],
    ]) {
      assertInvalid(await api.get(`${membersUrl(facility)}?${query}`), field);
    }
  });

  test('limit and cursor walk every page in id order', async () => {
    const facility = api.newFacility();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await addMember(facility, { first_name: `M${i}` })).id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=3' : `?limit=3&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.get(`${membersUrl(facility)}${query}`);
      assert.equal(response.status, 200, response.text);
      seen.push(...response.body.members.map((m: { id: number }) => m.id));
      cursor = response.body.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids);
    const exact = await api.get(`${membersUrl(facility)}?limit=7`);
    assert.equal(exact.body.members.length, 7);
    assert.equal(exact.body.next_cursor, null);
  });

  test('paging keeps the filters', async () => {
    const facility = api.newFacility();
    for (let i = 0; i < 5; i++)
      await addMember(facility, { first_name: `M${i}`, role: i % 2 ? 'coach' : 'staff' });
    const first = await api.get(`${membersUrl(facility)}?role=staff&limit=2`);
    assert.deepEqual(
      first.body.members.map((m: { first_name: string }) => m.first_name),
      ['M0', 'M2'],
    );
    const cursor = encodeURIComponent(first.body.next_cursor);
    assert.deepEqual(await listNames(facility, `?role=staff&limit=2&cursor=${cursor}`), ['M4']);
  });

  test('a bad cursor is 400', async () => {
    const facility = api.newFacility();
    for (const cursor of ['nonsense', 'aWQ6MA', 'aWQ6LTE', Buffer.from('id:1 ').toString('base64url')]) {
      assertInvalid(await api.get(`${membersUrl(facility)}?cursor=${cursor}`), 'cursor');
    }
  });
});
