/**
 * Cursor paging of the member list as a property: while a reader follows
 * `next_cursor` with any page size, other writers add members and remove
 * (softly or for good) any of them between its pages. Whatever they do, the
 * pages come in id order, no member comes twice, every member never removed
 * (those added meanwhile too) comes once, and none comes after it was removed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { describeEachDialect } from '../../../test/harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** What happens between two pages: members added, and members removed (by their place among those there). */
const between = fc.record({
  added: fc.integer({ min: 0, max: 4 }),
  removed: fc.array(fc.record({ at: fc.nat(), hard: fc.boolean() }), { maxLength: 3 }),
});
const scenario = fc.record({
  initial: fc.integer({ min: 0, max: 30 }),
  limit: fc.integer({ min: 1, max: 7 }),
  steps: fc.array(between, { minLength: 1, maxLength: 40 }),
});

describeEachDialect(
  'members: paging under concurrent writes, as a property',
  (api) => {
    test('pages in id order, each member once, every member never removed, none after its removal', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ initial, limit, steps }) => {
          const url = `/admin/facilities/${api.newFacility()}/members`;
          const add = async () => {
            const created = await api.post(url, { first_name: 'M' });
            assert.equal(created.status, 201, created.text);
            return created.body.id as number;
          };
          const present = new Set<number>();
          for (let i = 0; i < initial; i++) present.add(await add());
          /** Every member never removed, those added while the reader pages included (their ids come later). */
          const kept = new Set(present);
          /** When each member was removed: the number of pages read by then. */
          const removedAfterPages = new Map<number, number>();
          const seen: { id: number; page: number }[] = [];
          let cursor: string | null | undefined;
          let page = 0;
          for (const step of [...steps, ...Array.from({ length: 100 }, () => undefined)]) {
            const query = cursor ? `?limit=${limit}&cursor=${encodeURIComponent(cursor)}` : `?limit=${limit}`;
            const response = await api.get(`${url}${query}`);
            assert.equal(response.status, 200, response.text);
            page++;
            for (const member of response.body.members) seen.push({ id: member.id, page });
            cursor = response.body.next_cursor;
            if (cursor === null) break;
            if (step === undefined) continue;
            for (let i = 0; i < step.added; i++) {
              const id = await add();
              present.add(id);
              kept.add(id);
            }
            for (const { at, hard } of step.removed) {
              const ids = [...present];
              if (ids.length === 0) break;
              const id = ids[at % ids.length];
              const removed = await api.delete(`${url}/${id}${hard ? '?hard_delete=true' : ''}`);
              assert.equal(removed.status, 204, removed.text);
              present.delete(id);
              kept.delete(id);
              removedAfterPages.set(id, page);
            }
          }
          assert.equal(cursor, null, 'the last page says so');
          const ids = seen.map((entry) => entry.id);
          assert.deepEqual(
            ids,
            [...ids].sort((a, b) => a - b),
            'in id order',
          );
          assert.equal(new Set(ids).size, ids.length, 'no member twice');
          for (const id of kept) assert.ok(ids.includes(id), `member ${id}, never removed, was not listed`);
          for (const { id, page: listedOn } of seen) {
            const removedAfter = removedAfterPages.get(id);
            assert.ok(
              removedAfter === undefined || listedOn <= removedAfter,
              `member ${id} listed after its removal`,
            );
          }
        }),
        { numRuns: RUNS },
      );
    });
  },
  // Thousands of requests on purpose.
  { rateLimitPerMinute: 0 },
);
