/**
 * A CSV export, imported again, gives the same members, whatever text their
 * cells hold (quotes, separators, line breaks, formula characters, ' before
 * them, any Unicode): a property through the API, members exported from one
 * facility and imported into another (an import job, followed to its end),
 * compared field by field. An empty text comes back as null: a CSV cell
 * cannot tell them apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { importCsv as importJob } from '../src/modules/members/csv/member-import-api.fixtures.js';
import type { Api } from './harness.js';
import { describeEachDialect } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const FIELDS = ['first_name', 'last_name', 'notes', 'status_reason'] as const;
/** Any text the API stores as sent: no U+0000 (refused), any other code point, CSV's own characters often. */
const cell = fc
  .string({
    unit: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(',', ';', '"', "'", '\n', '\r', '\t', ' ', '=', '+', '-', '@', '\uFEFF'),
      },
      { weight: 5, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    ),
    maxLength: 30,
  })
  .filter((text) => !text.includes('\u0000'));
const member = fc.record({
  first_name: cell.filter((text) => text.trim() !== ''),
  last_name: fc.option(cell),
  notes: fc.option(cell),
});

/** Imports a CSV file into a facility and answers once its job has written every row. */
async function importCsv(api: Api, facility: number, csv: string): Promise<void> {
  const imported = await importJob(api, facility, csv);
  assert.equal(imported.status, 200, imported.text);
  assert.equal(imported.job?.state, 'succeeded', JSON.stringify(imported.job));
  assert.equal(imported.body.counts.failed, 0, JSON.stringify(imported.body));
}

describeEachDialect(
  'members CSV: an export imported again, as a property',
  (api) => {
    const membersOf = async (facility: number) =>
      (await api.get(`/admin/facilities/${facility}/members?limit=1000`)).body.members as Record<
        string,
        unknown
      >[];

    test('gives the same members, whatever their text', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(member, { minLength: 1, maxLength: 5 }), async (members) => {
          const [from, to] = [api.newFacility(), api.newFacility()];
          for (const body of members) {
            const created = await api.post(`/admin/facilities/${from}/members`, body);
            assert.equal(created.status, 201, created.text);
          }
          const exported = await api.get(`/admin/facilities/${from}/members/export.csv`);
          assert.equal(exported.status, 200, exported.text);
          await importCsv(api, to, exported.text);
          const fields = (rows: Record<string, unknown>[]) =>
            rows.map((row) => FIELDS.map((field) => (row[field] === '' ? null : row[field])));
          assert.deepEqual(fields(await membersOf(to)), fields(await membersOf(from)));
        }),
        { numRuns: RUNS },
      );
    });
  },
  { rateLimitPerMinute: 0 },
);
