/**
 * The member list's `sort=`: by first name, last name, joining day or
 * creation, ascending or descending, ties by id in the same direction, paged
 * by a cursor that carries the sort, so that each member comes once and in
 * order, members added between pages included, with `q` and filters.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';

interface Listed {
  id: number;
  first_name: string;
  last_name: string | null;
  joined_on: string;
  created_at: string;
}

describeEachDialect('member list sorted', (api) => {
  let url = '';

  async function add(body: object): Promise<Listed> {
    const response = await api.post(url, body);
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  /** Every page of a query, following next_cursor; `between` runs after each page. */
  async function listAll(query: string, between?: () => Promise<void>): Promise<Listed[]> {
    const members: Listed[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`${url}?${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
      assert.equal(page.status, 200, page.text);
      members.push(...page.body.members);
      cursor = page.body.next_cursor;
      await between?.();
    } while (cursor !== null);
    return members;
  }

  /** The expected order: by the key, then by id, in the sort's direction. */
  const ordered = (members: Listed[], key: (m: Listed) => string, descending = false) =>
    [...members]
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id) * (descending ? -1 : 1))
      .map((m) => m.id);

  const everyone: Listed[] = [];

  before(async () => {
    url = `/admin/facilities/${api.newFacility()}/members`;
    // Ties on every field, a missing last name, days out of id order. Names share one case: the
    // engines' text orders agree on them.
    const names = ['Mara', 'Anna', 'Zeno', 'Anna', 'Carl', 'Mara', 'Bea', 'Anna', 'Dina', 'Carl'];
    for (const [i, first_name] of names.entries()) {
      everyone.push(
        await add({
          first_name,
          last_name: i % 4 === 0 ? null : ['Berg', 'Auer', 'Berg'][i % 3],
          joined_on: `2026-0${1 + (i % 3)}-1${i % 2}`,
        }),
      );
    }
  });

  for (const [sort, key] of [
    ['first_name', (m: Listed) => m.first_name],
    ['last_name', (m: Listed) => m.last_name ?? ''],
    ['joined_on', (m: Listed) => m.joined_on],
    ['created_at', (m: Listed) => m.created_at],
  ] as const) {
    test(`sort=${sort} and sort=-${sort} list every member once, in order, ties by id, at any page size`, async () => {
      for (const limit of [1, 3, 100]) {
        const ascending = await listAll(`sort=${sort}&limit=${limit}`);
        assert.deepEqual(
          ascending.map((m) => m.id),
          ordered(everyone, key),
          `${sort}, limit ${limit}`,
        );
        const descending = await listAll(`sort=-${sort}&limit=${limit}`);
        assert.deepEqual(
          descending.map((m) => m.id),
          ordered(everyone, key, true),
          `-${sort}, limit ${limit}`,
        );
      }
    });
  }

  test('members added between pages neither repeat nor shift the others', async () => {
    const local = `/admin/facilities/${api.newFacility()}/members`;
    const saved = url;
    url = local;
    try {
      const first = [
        await add({ first_name: 'Ka' }),
        await add({ first_name: 'Kc' }),
        await add({ first_name: 'Ke' }),
      ];
      const added: Listed[] = [];
      let n = 0;
      const seen = await listAll('sort=first_name&limit=1', async () => {
        // Before and after the reader's place: the one before is not listed, the one after is.
        if (n++ === 1) added.push(await add({ first_name: 'Kb' }), await add({ first_name: 'Kd' }));
      });
      const names = seen.map((m) => m.first_name);
      assert.deepEqual(names, ['Ka', 'Kc', 'Kd', 'Ke']);
      assert.equal(new Set(seen.map((m) => m.id)).size, seen.length);
      assert.equal(first.length + added.length, 5);
    } finally {
      url = saved;
    }
  });

  test('a sorted page of more rows than one read, and past the byte budget, still lists each member once', async () => {
    const saved = url;
    url = `/admin/facilities/${api.newFacility()}/members`;
    try {
      const many: Listed[] = [];
      for (let start = 0; start < 220; start += 20) {
        const batch = Array.from({ length: 20 }, (_, i) =>
          add({ first_name: `N${(start + i) % 37}`, notes: 'x'.repeat(1500) }),
        );
        many.push(...(await Promise.all(batch)));
      }
      const first = await api.get(`${url}?sort=-first_name&limit=1000`);
      assert.equal(first.status, 200, first.text);
      // 220 members of about 2 kB pass the 256 KiB budget: the page ends early and says so.
      assert.ok(first.body.members.length < 220 && first.body.next_cursor !== null);
      const listed = await listAll('sort=-first_name&limit=1000');
      assert.deepEqual(
        listed.map((m) => m.id),
        ordered(many, (m) => m.first_name, true),
      );
    } finally {
      url = saved;
    }
  });

  test('sort combines with q and filters', async () => {
    const annas = await listAll('sort=-joined_on&q=anna&limit=1');
    const expected = everyone.filter((m) => m.first_name === 'Anna');
    assert.deepEqual(
      annas.map((m) => m.id),
      ordered(expected, (m) => m.joined_on, true),
    );
    const bergs = await listAll('sort=first_name&q=berg&status=active&limit=2');
    assert.deepEqual(
      bergs.map((m) => m.id),
      ordered(
        everyone.filter((m) => m.last_name === 'Berg'),
        (m) => m.first_name,
      ),
    );
  });

  test('an unknown sort field is a 400 that names the allowed ones', async () => {
    const response = await api.get(`${url}?sort=email`);
    assertInvalid(response, 'sort');
    assert.match(response.text, /first_name, last_name, joined_on, created_at/);
  });

  test('a cursor is refused under another sort, and an id cursor under a sort', async () => {
    const page = await api.get(`${url}?sort=first_name&limit=1`);
    const cursor = page.body.next_cursor as string;
    assertProblem(await api.get(`${url}?sort=last_name&cursor=${cursor}`), 400, 'validation_error');
    assertProblem(await api.get(`${url}?cursor=${cursor}`), 400, 'validation_error');
    const byId = (await api.get(`${url}?limit=1`)).body.next_cursor as string;
    assertProblem(await api.get(`${url}?sort=first_name&cursor=${byId}`), 400, 'validation_error');
  });
});
