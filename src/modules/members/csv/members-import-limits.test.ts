import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Api, assertProblem, describeEachDialect } from '../../../../test/harness.js';
import { loadConfig } from '../../../config.js';

const CSV = { 'content-type': 'text/csv' };
const importCsv = (api: Api, facility: number, csv: string | Buffer, query = '') =>
  api.app.inject({
    method: 'POST',
    url: `/admin/facilities/${facility}/members/import${query}`,
    headers: CSV,
    payload: csv,
  });
const problemOf = (response: Awaited<ReturnType<typeof importCsv>>) => ({
  status: response.statusCode,
  body: JSON.parse(response.body),
  text: response.body,
  headers: response.headers,
});
const countMembers = async (api: Api, facility: number) =>
  (await api.get(`/admin/facilities/${facility}/members?limit=1000`)).body.members.length as number;

describeEachDialect(
  'members CSV import: what it refuses',
  (api) => {
    test('an unknown column is 400 invalid_csv naming it and the known ones', async () => {
      const response = problemOf(await importCsv(api, api.newFacility(), 'first_name,nickname\nAnn,A\n'));
      assertProblem(response, 400, 'invalid_csv');
      assert.match(
        response.body.detail,
        /^Line 1: unknown column "nickname"; the columns are the member fields \(id, /,
      );
    });

    test('a column twice, or no name column, is 400 invalid_csv', async () => {
      const facility = api.newFacility();
      assertProblem(
        problemOf(await importCsv(api, facility, 'first_name,first_name\nA,B\n')),
        400,
        'invalid_csv',
      );
      assertProblem(problemOf(await importCsv(api, facility, 'notes\nhello\n')), 400, 'invalid_csv');
    });

    test('a row with another number of fields than the header, or an open quote, is 400 naming the line', async () => {
      const facility = api.newFacility();
      const short = problemOf(
        await importCsv(api, facility, 'first_name,last_name\nAnn,Lee\nBo\n', '?on_error=skip'),
      );
      assertProblem(short, 400, 'invalid_csv');
      assert.match(short.body.detail, /line 3/);
      const open = problemOf(await importCsv(api, facility, 'first_name\n"Ann\n'));
      assertProblem(open, 400, 'invalid_csv');
      assert.equal(
        await countMembers(api, facility),
        0,
        'the rows before the bad one are not written either',
      );
    });

    test('an empty file, and bytes that are not UTF-8, are 400 invalid_csv', async () => {
      const facility = api.newFacility();
      assertProblem(problemOf(await importCsv(api, facility, '')), 400, 'invalid_csv');
      const latin1 = Buffer.from('first_name\nJos\xe9\n', 'latin1');
      assertProblem(problemOf(await importCsv(api, facility, latin1)), 400, 'invalid_csv');
    });

    test('more rows than IMPORT_MAX_ROWS is 400 stating the limit, and nothing is written, skip or not', async () => {
      // The file is three chunks of a skipping import: the first two would have been written.
      const facility = api.newFacility();
      const csv = `first_name\n${Array.from({ length: 6 }, (_, i) => `M${i}`).join('\n')}\n`;
      const response = problemOf(await importCsv(api, facility, csv, '?on_error=skip'));
      assertProblem(response, 400, 'invalid_csv');
      assert.match(response.body.detail, /more than 5 rows/);
      assert.equal(await countMembers(api, facility), 0);
    });

    test('a body over IMPORT_MAX_BYTES is 413 payload_too_large', async () => {
      const csv = `first_name\n${'A'.repeat(100)}\n`.repeat(20);
      assertProblem(problemOf(await importCsv(api, api.newFacility(), csv)), 413, 'payload_too_large');
    });

    test('a JSON body is 415: the import reads text/csv', async () => {
      const response = await api.post(`/admin/facilities/${api.newFacility()}/members/import`, [
        { first_name: 'A' },
      ]);
      assertProblem(response, 415, 'unsupported_media_type');
    });
  },
  { memberImport: { ...loadConfig({}).memberImport, maxBytes: 1024, maxRows: 5, chunkRows: 2 } },
);
