/**
 * Sorted paging as a property: with any sort, any page size, names and days
 * with many ties, and members added between pages, the pages come in the
 * sort's order (ties by id in its direction), no member comes twice, and
 * every member there from the start comes once. Names are of small ASCII
 * letters, which both engines' text orders agree on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { describeEachDialect } from '../../../test/harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

const memberArbitrary = fc.record({
  first_name: fc.string({ unit: fc.constantFrom(...'abc'), minLength: 1, maxLength: 3 }),
  last_name: fc.option(fc.string({ unit: fc.constantFrom(...'xy'), minLength: 1, maxLength: 2 })),
  joined_on: fc.constantFrom('2026-01-01', '2026-01-02', '2026-02-01'),
});
const scenario = fc.record({
  sort: fc.constantFrom('first_name', '-first_name', 'last_name', '-last_name', 'joined_on', '-joined_on'),
  initial: fc.array(memberArbitrary, { maxLength: 20 }),
  limit: fc.integer({ min: 1, max: 6 }),
  added: fc.array(fc.array(memberArbitrary, { maxLength: 2 }), { maxLength: 8 }),
});

interface Listed {
  id: number;
  first_name: string;
  last_name: string | null;
  joined_on: string;
}

describeEachDialect(
  'members: sorted paging under inserts, as a property',
  (api) => {
    test('pages in the sort order, ties by id, each member once, every first member listed', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ sort, initial, limit, added }) => {
          const url = `/admin/facilities/${api.newFacility()}/members`;
          const add = async (body: object) => {
            const created = await api.post(url, body);
            assert.equal(created.status, 201, created.text);
            return created.body.id as number;
          };
          const first = new Set<number>();
          for (const body of initial) first.add(await add(body));
          const seen: Listed[] = [];
          let cursor: string | null = null;
          let step = 0;
          do {
            const query = `?sort=${sort}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
            const response = await api.get(`${url}${query}`);
            assert.equal(response.status, 200, response.text);
            seen.push(...response.body.members);
            cursor = response.body.next_cursor;
            for (const body of added[step++] ?? []) await add(body);
          } while (cursor !== null);
          const field = sort.replace('-', '') as 'first_name' | 'last_name' | 'joined_on';
          const direction = sort.startsWith('-') ? -1 : 1;
          const key = (m: Listed) => m[field] ?? '';
          for (let i = 1; i < seen.length; i++) {
            const [a, b] = [seen[i - 1], seen[i]];
            const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : Math.sign(a.id - b.id);
            assert.equal(order, -direction, `${sort}: ${JSON.stringify(a)} before ${JSON.stringify(b)}`);
          }
          const ids = seen.map((m) => m.id);
          assert.equal(new Set(ids).size, ids.length, 'no member twice');
          for (const id of first) assert.ok(ids.includes(id), `member ${id} was not listed`);
        }),
        { numRuns: RUNS },
      );
    });
  },
  { rateLimitPerMinute: 0 },
);
