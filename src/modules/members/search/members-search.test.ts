import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDialect } from '../../../../test/harness.js';
import { SMALL_FACILITY } from './member-search-sample.js';

/**
 * `q` in a facility too large to read whole for every search: PostgreSQL's
 * trigram index finds the members of a rare term, a common term is read in
 * order (SQLite's FTS5 index likewise, migration 0041), and the answers must be the same
 * as in a small facility, whatever the sample of the facility said.
 */
describeEachDialect('member search in a large facility', (api) => {
  let membersUrl = '';
  let planId = 0;
  const ids: Record<string, number> = {};

  async function addMember(body: { first_name: string } & Record<string, unknown>) {
    const response = await api.post(membersUrl, body);
    assert.equal(response.status, 201, response.text);
    ids[body.first_name] = response.body.id;
  }

  /** Members of every page a query answers, after checking they come in id order. */
  async function listAll(query: string): Promise<{ id: number; first_name: string }[]> {
    const members: { id: number; first_name: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`${membersUrl}?${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
      assert.equal(page.status, 200, page.text);
      members.push(...page.body.members);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    const memberIds = members.map((member) => member.id);
    assert.deepEqual(
      memberIds,
      [...memberIds].sort((a, b) => a - b),
      `${query}: not in id order`,
    );
    return members;
  }

  const search = async (query: string) => (await listAll(query)).map((member) => member.first_name);

  before(async () => {
    membersUrl = `/admin/facilities/${api.newFacility()}/members`;
    planId = (await api.post(membersUrl.replace('/members', '/plans'), { name: 'Gold' })).body.id;
    await addMember({ first_name: 'Mariam', last_name: 'Early' });
    for (let start = 0; start < SMALL_FACILITY + 50; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          api.post(membersUrl, { first_name: `Filler${start + i}`, email: `filler${start + i}@example.com` }),
        ),
      );
    }
    await addMember({ first_name: 'Marianne', last_name: 'Olsen' });
    await addMember({ first_name: 'Carl', email: 'Carl.MARIA@Example.com' });
    await addMember({ first_name: 'Élodie', last_name: 'Öztürk', status: 'pending' });
    await addMember({ first_name: 'Gustav', last_name: 'Straße', email: 'gz@qx.example' });
    await addMember({ first_name: 'Coach', last_name: 'Late', role: 'coach', sport_id: 2, plan_id: planId });
    await addMember({ first_name: 'Player', last_name: 'Late' });
    await addMember({ first_name: 'Leaving', last_name: 'Late' });
    await addMember({ first_name: 'Percent', last_name: '100%_x back\\slash' });
    await addMember({ first_name: 'Renamed', last_name: 'Before' });
    await addMember({ first_name: 'Erased', last_name: 'Gone' });
    await addMember({ first_name: 'Ann Lee', last_name: 'Apart' });
    await addMember({ first_name: 'Ann Smith', last_name: 'Jo Lee' });
    await api.post(`/admin/facilities/${api.newFacility()}/members`, { first_name: 'Marielle' });
  });

  test('q finds members of a rare term, ignoring case, early and late in the facility', async () => {
    assert.deepEqual(await search('q=MARI'), ['Mariam', 'Marianne', 'Carl']);
    assert.deepEqual(await search('q=olsen'), ['Marianne']);
    assert.deepEqual(await search('q=%C3%B6ZT%C3%9CRK'), ['Élodie']);
    assert.deepEqual(await search('q=zzz'), []);
  });

  test('q finds every member of a term common in the facility, page by page', async () => {
    // Filler1, Filler10 to 19, 100 to 199 and 1000 to 1049: 161 of the facility's members.
    const found = await search('q=filler1');
    assert.equal(found.length, 161);
    assert.ok(found.every((name) => name.startsWith('Filler1')));
  });

  test('q finds an email by its rare parts, though most members share its domain', async () => {
    assert.deepEqual(await search('q=FILLER7%40example.com'), ['Filler7']);
    assert.deepEqual(await search('q=carl.maria%40example.com'), ['Carl']);
    assert.deepEqual(await search('q=carl.maria%40example.org'), []);
  });

  test('q of several words finds the members with every word, in any field and any order', async () => {
    // "Ann Smith Jo Lee" has both words, apart.
    assert.deepEqual(await search(`q=${encodeURIComponent('ANN LEE')}`), ['Ann Lee', 'Ann Smith']);
    assert.deepEqual(await search(`q=${encodeURIComponent('lee smith')}`), ['Ann Smith']);
    assert.deepEqual(await search(`q=${encodeURIComponent('apart lee ann')}`), ['Ann Lee']);
    assert.deepEqual(await search(`q=${encodeURIComponent('ann lee zzz')}`), []);
  });

  test('q pages with the cursor', async () => {
    assert.deepEqual(await search('q=mari&limit=1'), ['Mariam', 'Marianne', 'Carl']);
  });

  test('a term that became common since the facility was sampled is answered whole', async () => {
    assert.deepEqual(await search('q=quintus'), []);
    // One at a time, so that ids follow the names.
    for (let i = 0; i < 150; i++) await api.post(membersUrl, { first_name: `Quintus${i}` });
    for (const limit of [7, 100]) {
      const found = await search(`q=quintus&limit=${limit}`);
      assert.deepEqual(
        found,
        Array.from({ length: 150 }, (_, i) => `Quintus${i}`),
        `limit ${limit}`,
      );
    }
  });

  test('q combines with every other filter', async () => {
    assert.deepEqual(await search('q=%C3%A9lodie&status=pending'), ['Élodie']);
    assert.deepEqual(await search('q=%C3%A9lodie&status=active'), []);
    assert.deepEqual(await search('q=late&role=coach'), ['Coach']);
    assert.deepEqual(await search('q=late&role=member'), ['Player', 'Leaving']);
    assert.deepEqual(await search('q=late&sport_id=2'), ['Coach']);
    assert.deepEqual(await search(`q=late&plan_id=${planId}`), ['Coach']);
  });

  test('q leaves removed members out unless the status filter names removed', async () => {
    assert.equal((await api.delete(`${membersUrl}/${ids.Leaving}`)).status, 204);
    assert.deepEqual(await search('q=late'), ['Coach', 'Player']);
    assert.deepEqual(await search('q=late&status=removed'), ['Leaving']);
  });

  test('q treats % _ and \\ literally', async () => {
    const searchFor = (q: string) => search(`q=${encodeURIComponent(q)}`);
    assert.deepEqual(await searchFor('100%_x'), ['Percent']);
    assert.deepEqual(await searchFor('100%x'), []);
    assert.deepEqual(await searchFor('ck_sl'), []);
    assert.deepEqual(await searchFor('k\\sl'), ['Percent']);
  });

  test('terms of one or two characters, and ß against SS, answer as in a small facility', async () => {
    assert.deepEqual(await search('q=qx'), ['Gustav']);
    assert.deepEqual(await search('q=GZ%40QX'), ['Gustav']);
    assert.deepEqual(await search('q=STRASSE'), []);
    assert.deepEqual(await search('q=Stra%C3%9Fe'), ['Gustav']);
  });

  test('q follows changes of name and email, and forgets erased members', async () => {
    const patched = await api.patch(`${membersUrl}/${ids.Renamed}`, {
      last_name: 'After',
      email: 'new.address@example.org',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await search('q=before'), []);
    assert.deepEqual(await search('q=after'), ['Renamed']);
    assert.deepEqual(await search('q=NEW.ADDRESS'), ['Renamed']);
    const erased = await api.delete(`${membersUrl}/${ids.Erased}?hard_delete=true`);
    assert.equal(erased.status, 204, erased.text);
    assert.deepEqual(await search('q=gone'), []);
  });
});
