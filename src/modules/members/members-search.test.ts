import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { encodeCursor } from '../../http/paging.js';
import { SEARCH_WINDOW } from './member-list.repository.js';

/**
 * `q` in a facility larger than the window a search reads in order: past it,
 * PostgreSQL's trigram index finds the members (SQLite reads on), and the
 * answers must be the same as in a small facility.
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

  /** Members of every page a query answers from `cursor` on, after checking they come in id order. */
  async function listAll(
    query: string,
    from: string | null = null,
  ): Promise<{ id: number; first_name: string }[]> {
    const members: { id: number; first_name: string }[] = [];
    let cursor = from;
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
    for (let start = 0; start < SEARCH_WINDOW + 50; start += 50) {
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
    await addMember({ first_name: 'EdgeOne', last_name: 'Windowedge' });
    await addMember({ first_name: 'EdgeTwo', last_name: 'Windowedge' });
    await api.post(`/admin/facilities/${api.newFacility()}/members`, { first_name: 'Marielle' });
  });

  test('q finds members before and past the window, ignoring case', async () => {
    assert.deepEqual(await search('q=MARI'), ['Mariam', 'Marianne', 'Carl']);
    assert.deepEqual(await search('q=olsen'), ['Marianne']);
    assert.deepEqual(await search('q=%C3%B6ZT%C3%9CRK'), ['Élodie']);
    assert.deepEqual(await search('q=zzz'), []);
  });

  test('q of several words finds the whole term past the window, not its words apart', async () => {
    // "Ann Smith Jo Lee" has "ann " and " lee", each part of the term the index is asked for.
    assert.deepEqual(await search(`q=${encodeURIComponent('ANN LEE')}`), ['Ann Lee']);
  });

  test('q pages with the cursor from the window to past it', async () => {
    assert.deepEqual(await search('q=mari&limit=1'), ['Mariam', 'Marianne', 'Carl']);
  });

  test("the window's last member and the first past it are each answered once", async () => {
    const everyId = (await listAll('limit=1000')).map((member) => member.id);
    // A cursor that leaves EdgeOne the window's last member and EdgeTwo the first past it.
    const cursor = encodeCursor(everyId[everyId.indexOf(ids.EdgeOne) - SEARCH_WINDOW]);
    for (const limit of [1, 2, 100]) {
      const members = await listAll(`q=windowedge&limit=${limit}`, cursor);
      assert.deepEqual(
        members.map((member) => member.first_name),
        ['EdgeOne', 'EdgeTwo'],
        `limit ${limit}`,
      );
    }
  });

  test('q combines with every other filter past the window', async () => {
    assert.deepEqual(await search('q=%C3%A9lodie&status=pending'), ['Élodie']);
    assert.deepEqual(await search('q=%C3%A9lodie&status=active'), []);
    assert.deepEqual(await search('q=late&role=coach'), ['Coach']);
    assert.deepEqual(await search('q=late&role=member'), ['Player', 'Leaving']);
    assert.deepEqual(await search('q=late&sport_id=2'), ['Coach']);
    assert.deepEqual(await search(`q=late&plan_id=${planId}`), ['Coach']);
  });

  test('q leaves removed members out past the window unless the status filter names removed', async () => {
    assert.equal((await api.delete(`${membersUrl}/${ids.Leaving}`)).status, 204);
    assert.deepEqual(await search('q=late'), ['Coach', 'Player']);
    assert.deepEqual(await search('q=late&status=removed'), ['Leaving']);
  });

  test('q treats % _ and \\ literally past the window', async () => {
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
