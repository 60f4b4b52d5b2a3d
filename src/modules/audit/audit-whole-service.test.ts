/**
 * Issue 37: a facility's trail holds the whole service's entries (facility 0:
 * API keys for every facility) beside its own. Read as two ranges and merged,
 * it must page through both, each entry once, in id order, whatever the
 * limit and the byte budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';

describeEachDialect(
  "a facility's trail with the whole service's entries",
  (api) => {
    test('paging reads every entry of both once, in id order, with small limits and a page budget', async () => {
      const facility = api.newFacility();
      const other = api.newFacility();
      // A pattern of own, whole-service and another facility's entries; some large enough to fill a page.
      const pattern = 'ossosoooosxsssoosxoooooosssoxsosoososoo';
      const expected: { id: number; own: boolean }[] = [];
      for (const [i, kind] of [...pattern].entries()) {
        const large = i % 7 === 3;
        const [row] = await api.app.db
          .insertInto('audit_events')
          .values({
            facility_id: kind === 'o' ? facility : kind === 's' ? 0 : other,
            resource_type: kind === 'o' ? 'plan' : 'api_key',
            resource_id: String(i),
            action: 'create',
            api_key_id: null,
            api_key_name: 'cli',
            changes: JSON.stringify({ name: { before: null, after: large ? 'x'.repeat(6000) : `k${i}` } }),
            request_id: null,
            occurred_at: new Date().toISOString(),
          })
          .returning('id')
          .execute();
        if (kind !== 'x') expected.push({ id: Number(row.id), own: kind === 'o' });
      }
      const readAll = async (query: string) => {
        const ids: number[] = [];
        let cursor: string | null = null;
        do {
          const url = `/admin/facilities/${facility}/audit-events?${query}${cursor ? `&cursor=${cursor}` : ''}`;
          const page = await api.get(url);
          assert.equal(page.status, 200, page.text);
          assert.ok(
            page.body.audit_events.length > 0 || cursor === null,
            'a page that says more follow has some',
          );
          ids.push(...page.body.audit_events.map((e: { id: number }) => e.id));
          cursor = page.body.next_cursor;
        } while (cursor !== null);
        return ids;
      };
      const all = expected.map((e) => e.id);
      for (const limit of [1, 2, 3, 5, 100])
        assert.deepEqual(await readAll(`limit=${limit}`), all, `limit ${limit}`);
      const serviceWide = expected.filter((e) => !e.own).map((e) => e.id);
      assert.deepEqual(await readAll('limit=2&resource_type=api_key'), serviceWide);
      const own = expected.filter((e) => e.own).map((e) => e.id);
      assert.deepEqual(await readAll('limit=4&resource_type=plan'), own);
    });
  },
  { pageMaxBytes: 16 * 1024 },
);
