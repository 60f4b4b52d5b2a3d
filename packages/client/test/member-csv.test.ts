/** The client's CSV import and export against the real service, on SQLite and PostgreSQL. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { listening, problemOf, WITH_API_KEY } from './service.js';

describeEachDialect(
  'the client: members CSV',
  (api) => {
    const { clientOf } = listening(api);

    test('importMembers: a dry run, then the import; exportMembers streams the file back', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const csv = 'first_name;email;external_id\r\nAnn;ann@example.com;A-1\r\nBo;bo@example.com;A-2\r\n';
      const dry = await client.importMembers(facility, csv, { dry_run: true });
      assert.deepEqual(dry.counts, { rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
      assert.equal(dry.written, false);
      const real = await client.importMembers(facility, new TextEncoder().encode(csv), {
        match_by: 'external_id',
      });
      assert.equal(real.written, true);

      const stream = await client.exportMembers(facility, { q: 'ann' });
      const text = await new Response(stream).text();
      const lines = text.trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1], /,Ann,.*ann@example\.com/);
    });

    test('a file the service refuses is a ProblemError invalid_csv', async () => {
      const problem = await problemOf(clientOf().importMembers(api.newFacility(), 'nickname\nA\n'));
      assert.deepEqual([problem.status, problem.code], [400, 'invalid_csv']);
    });
  },
  WITH_API_KEY,
);
