import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { SEARCH_WINDOW } from './member-list.repository.js';

/**
 * `q` in a facility larger than the window a search reads in order: past it,
 * PostgreSQL's trigram index finds the members (SQLite reads on), and the
 * answers must be the same as in a small facility.
 */
describeEachDialect('member search in a large facility', (api) => {
  let membersUrl = '';
  const ids: Record<string, number> = {};

  async function addMember(body: { first_name: string } & Record<string, unknown>) {
    const response = await api.post(membersUrl, body);
    assert.equal(response.status, 201, response.text);
    ids[body.first_name] = response.body.id;
  }

  /** First names of the members a search answers, over every page, after checking they come in id order. */
  async function search(query: string): Promise<string[]> {
    const members: { id: number; first_name: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`${membersUrl}?${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
      assert.equal(page.status, 200, page.text);
      members.push(...page.body.members);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    const ids = members.map((member) => member.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      `${query}: not in id order`,
    );
    return members.map((member) => member.first_name);
  }

  before(async () => {
    membersUrl = `/admin/facilities/${api.newFacility()}/members`;
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
    await addMember({ first_name: 'Renamed', last_name: 'Before' });
    await addMember({ first_name: 'Erased', last_name: 'Gone' });
    await api.post(`/admin/facilities/${api.newFacility()}/members`, { first_name: 'Marielle' });
  });

  test('q finds members before and past the window, ignoring case', async () => {
    assert.deepEqual(await search('q=MARI'), ['Mariam', 'Marianne', 'Carl']);
    assert.deepEqual(await search('q=olsen'), ['Marianne']);
    assert.deepEqual(await search('q=%C3%B6ZT%C3%9CRK'), ['Élodie']);
    assert.deepEqual(await search('q=zzz'), []);
  });

  test('q pages with the cursor across the window', async () => {
    assert.deepEqual(await search('q=mari&limit=1'), ['Mariam', 'Marianne', 'Carl']);
    // Filler10, Filler100 to 109 and Filler1000 to 1049, created 50 at a time: the window ends among them.
    const fillers = await search('q=filler10&limit=7');
    const expected = [
      10,
      ...Array.from({ length: 10 }, (_, i) => 100 + i),
      ...Array.from({ length: 50 }, (_, i) => 1000 + i),
    ];
    assert.deepEqual(fillers.sort(), expected.map((i) => `Filler${i}`).sort());
  });

  test('q combines with the other filters past the window', async () => {
    assert.deepEqual(await search('q=%C3%A9lodie&status=pending'), ['Élodie']);
    assert.deepEqual(await search('q=%C3%A9lodie&status=active'), []);
  });

  test('short terms and letters whose cases fold unlike the index are still found', async () => {
    assert.deepEqual(await search('q=qx'), ['Gustav']);
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
