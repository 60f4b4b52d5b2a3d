/**
 * A dry run answers what the real run then does, for varied files: rows
 * that create, match and change members, repeat keys, take the last seats
 * of a capped plan, free an email a later row takes, and fail. The job
 * runs two rows a chunk, so that rows see earlier ones across chunks: in a
 * dry run only through what it carries from one rolled-back chunk to the next.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type Api, describeEachDialect } from '../../../../test/harness.js';
import { loadConfig } from '../../../config.js';
import { importCsv } from './member-import-api.fixtures.js';

const COLUMNS = ['external_id', 'email', 'first_name', 'plan_id', 'status'] as const;

/** The facility every file is imported into: a capped plan with one seat left, and three members. */
async function facilityWithMembers(api: Api, facility: number) {
  const url = `/admin/facilities/${facility}/members`;
  const capped = (await api.post(`/admin/facilities/${facility}/plans`, { name: 'Capped', max_members: 2 }))
    .body;
  const open = (await api.post(`/admin/facilities/${facility}/plans`, { name: 'Open' })).body;
  await api.post(url, { first_name: 'One', external_id: 'x1', email: 'e1@x.org', plan_id: capped.id });
  await api.post(url, { first_name: 'Two', external_id: 'x2', email: 'e2@x.org' });
  const three = await api.post(url, {
    first_name: 'Three',
    external_id: 'x3',
    email: 'e3@x.org',
    plan_id: capped.id,
  });
  await api.patch(`${url}/${three.body.id}`, { status: 'cancelled' });
  return { capped: capped.id as number, open: open.id as number };
}

const cell = <T extends string>(...values: T[]) => fc.constantFrom(...values);
/** Keys of the members that exist, and emails they hold, come often: rows then match and collide. */
const row = fc.record({
  external_id: cell('', 'x1', 'x2', 'x3', 'x1', 'x2', 'x4', 'x5'),
  email: cell('', '', 'e1@x.org', 'e2@x.org', 'e3@x.org', 'e4@x.org', 'E4@X.org', 'e9@x.org', 'not-an-email'),
  first_name: cell('', 'Ann', 'Bo', 'Bo'),
  plan_id: cell('', 'capped', 'capped', 'open'),
  status: cell('', '', 'active', 'pending', 'frozen', 'cancelled'),
});
const file = fc.record({
  rows: fc.array(row, { minLength: 1, maxLength: 12 }),
  match_by: cell('none', 'email', 'external_id', 'external_id'),
  on_error: cell('skip', 'skip', 'abort'),
});

const withoutRun = ({ dry_run: _d, written: _w, ...rest }: Record<string, unknown>) => rest;

describeEachDialect(
  'a dry run answers what the real run does',
  (api) => {
    test('for varied files, match_by and on_error: the same counts and the same errors, row by row', async () => {
      await fc.assert(
        fc.asyncProperty(file, async ({ rows, match_by, on_error }) => {
          const facility = api.newFacility();
          const plans = await facilityWithMembers(api, facility);
          const lines = rows.map((r) =>
            COLUMNS.map((column) =>
              column === 'plan_id' && r.plan_id !== '' ? String(plans[r.plan_id]) : r[column],
            ).join(','),
          );
          const csv = `${COLUMNS.join(',')}\n${lines.join('\n')}\n`;
          const query = `?match_by=${match_by}&on_error=${on_error}`;
          const membersBefore = (
            await api.get(`/admin/facilities/${facility}/members?status=active,pending,frozen,cancelled`)
          ).body.members;
          const dry = await importCsv(api, facility, csv, `${query}&dry_run=true`);
          assert.equal(dry.status, 200, dry.text);
          const unchanged = (
            await api.get(`/admin/facilities/${facility}/members?status=active,pending,frozen,cancelled`)
          ).body.members;
          assert.deepEqual(unchanged, membersBefore, 'a dry run writes nothing');
          const real = await importCsv(api, facility, csv, query);
          assert.deepEqual(withoutRun(real.body), withoutRun(dry.body), csv);
        }),
        { numRuns: 25 },
      );
    });

    test('an email freed by an earlier row is taken by a later one, chunks apart, in both runs', async () => {
      const facility = api.newFacility();
      await facilityWithMembers(api, facility);
      // x1 gives up e1 (row 1); rows 2 to 4 fill two chunks; row 5 takes e1.
      const csv =
        'external_id,email,first_name\nx1,e9@x.org,One\nx6,,Six\nx7,,Seven\nx8,,Eight\nx10,e1@x.org,Ten\n';
      const dry = await importCsv(api, facility, csv, '?match_by=external_id&dry_run=true');
      assert.deepEqual(dry.body.counts, { rows: 5, created: 4, updated: 1, unchanged: 0, failed: 0 });
      const real = await importCsv(api, facility, csv, '?match_by=external_id');
      assert.deepEqual(withoutRun(real.body), withoutRun(dry.body));
    });

    test("a capped plan's last seat, taken in one chunk, is taken for the rows of the next, in both runs", async () => {
      const facility = api.newFacility();
      const { capped } = await facilityWithMembers(api, facility);
      // One seat left: row 2 takes it (chunk 1); row 4 (chunk 2) finds the plan full; row 5 leaves it
      // (x1 cancelled, chunk 3); row 6 takes the seat x1 gave up.
      const csv =
        'external_id,first_name,plan_id,status\n' +
        `x6,Six,,\nx7,Seven,${capped},\nx8,Eight,,\nx9,Nine,${capped},\nx1,One,,cancelled\nx10,Ten,${capped},\n`;
      const dry = await importCsv(api, facility, csv, '?match_by=external_id&on_error=skip&dry_run=true');
      assert.deepEqual(
        dry.body.errors.map((e: { row: number; code: string }) => [e.row, e.code]),
        [[4, 'plan_full']],
      );
      assert.deepEqual(dry.body.counts, { rows: 6, created: 4, updated: 1, unchanged: 0, failed: 1 });
      const real = await importCsv(api, facility, csv, '?match_by=external_id&on_error=skip');
      assert.deepEqual(withoutRun(real.body), withoutRun(dry.body));
    });
  },
  { memberImport: { ...loadConfig({}).memberImport, chunkRows: 2 } },
);
