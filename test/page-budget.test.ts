/**
 * PAGE_MAX_BYTES: a list page ends early once its items take the budget, says
 * where the next one begins, and paging through visits every item once, on
 * both the read that the database cuts at the budget and the read of a few
 * rows whole (src/db/page-rows.ts).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Api, describeEachDialect } from './harness.js';

const BUDGET = 16 * 1024;
/** 2,000 characters that JSON writes 6 bytes wide: about 12 kB of JSON. */
const HEAVY = '\u0001'.repeat(2000);

/** A catalog of 12 templates of about 12 kB each. */
const templatesFile = join(tmpdir(), `facility-admin-page-budget-${process.pid}.json`);
writeFileSync(
  templatesFile,
  JSON.stringify({
    templates: Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      name: `Template ${i + 1}`,
      description: HEAVY,
      sport_id: null,
      billing_period: 'monthly',
      price_amount: 100,
      currency: 'USD',
      duration_days: null,
      entitlements: [],
    })),
  }),
);

/** Every page from the first, checking that each stays within the budget or holds one item. */
async function walk(api: Api, url: string, key: string): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const separator = url.includes('?') ? '&' : '?';
    const response = await api.get(cursor === null ? url : `${url}${separator}cursor=${cursor}`);
    assert.equal(response.status, 200, response.text);
    const items = response.body[key] as { id: number }[];
    assert.ok(items.length > 0 || pages === 0, `page ${pages + 1} is empty but a cursor led to it`);
    const itemBytes = Buffer.byteLength(items.map((item) => JSON.stringify(item)).join(','));
    assert.ok(items.length === 1 || itemBytes <= BUDGET, `page ${pages + 1}: ${itemBytes} bytes of items`);
    ids.push(...items.map((item) => item.id));
    cursor = response.body.next_cursor;
    pages++;
  } while (cursor !== null);
  return { ids, pages };
}

describeEachDialect(
  'page byte budget',
  (api) => {
    /** Members that alternate between 12 kB and a few hundred bytes of JSON. */
    async function facilityOfMembers(count: number, notes: (i: number) => string | undefined) {
      const facility = api.newFacility();
      const ids: number[] = [];
      for (let i = 0; i < count; i++) {
        const response = await api.post(`/admin/facilities/${facility}/members`, {
          first_name: `M${i}`,
          notes: notes(i),
        });
        assert.equal(response.status, 201, response.text);
        ids.push(response.body.id);
      }
      return { facility, ids };
    }

    for (const limit of [1000, 5]) {
      test(`members: pages of limit=${limit} end at the budget, and the walk lists every member once`, async () => {
        const { facility, ids } = await facilityOfMembers(30, (i) => (i % 3 === 0 ? HEAVY : undefined));
        const walked = await walk(api, `/admin/facilities/${facility}/members?limit=${limit}`, 'members');
        assert.deepEqual(walked.ids, ids);
        assert.ok(walked.pages >= 10, `${walked.pages} pages`);
      });
    }

    test('members: small members fill a page up to the budget, and none is skipped', async () => {
      // A floor of bytes a member takes (member-list.repository.ts) set too high would end the
      // database's read before the page is full, and the list would stop there.
      const { facility, ids } = await facilityOfMembers(120, () => undefined);
      const walked = await walk(api, `/admin/facilities/${facility}/members?limit=1000`, 'members');
      assert.deepEqual(walked.ids, ids);
      assert.ok(walked.pages >= 2 && walked.pages <= 4, `${walked.pages} pages`);
    });

    test('audit events: a page holds one event even when that event alone is over the budget', async () => {
      const { facility, ids } = await facilityOfMembers(4, () => HEAVY);
      // before and after: about 24 kB of JSON each.
      for (const id of ids) {
        const response = await api.patch(`/admin/facilities/${facility}/members/${id}`, {
          notes: HEAVY.replaceAll('\u0001', '\u0002'),
        });
        assert.equal(response.status, 200, response.text);
      }
      const walked = await walk(api, `/admin/facilities/${facility}/audit-events?limit=1000`, 'audit_events');
      assert.equal(new Set(walked.ids).size, 8, 'every event once');
      assert.deepEqual(
        walked.ids,
        [...walked.ids].sort((a, b) => a - b),
      );
      assert.equal(walked.pages, 8);
    });

    test('plans: pages end at the budget, and the walk lists every plan once', async () => {
      const facility = api.newFacility();
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await api.post(`/admin/facilities/${facility}/plans`, {
          name: `Plan ${i}`,
          description: HEAVY,
        });
        ids.push(response.body.id);
      }
      const walked = await walk(api, `/admin/facilities/${facility}/plans?limit=1000`, 'plans');
      assert.deepEqual(walked.ids, ids);
      assert.equal(walked.pages, 6);
    });

    test('templates: pages end at the budget, and the walk lists every template once', async () => {
      const walked = await walk(api, '/admin/plan-templates?limit=1000', 'templates');
      assert.deepEqual(
        walked.ids,
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      assert.equal(walked.pages, 12);
    });
  },
  { pageMaxBytes: BUDGET, templatesFile },
);
