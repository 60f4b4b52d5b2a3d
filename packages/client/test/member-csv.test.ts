/** The client's CSV import (a job it follows) and export against the real service, on SQLite and PostgreSQL. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { createClient, type MemberImport, MemberImportFailed } from '../src/index.js';
import { listening, problemOf, WITH_API_KEY } from './service.js';

const CSV = 'first_name;email;external_id\r\nAnn;ann@example.com;A-1\r\nBo;bo@example.com;A-2\r\n';

describeEachDialect(
  'the client: members CSV',
  (api) => {
    const { clientOf } = listening(api);

    test('importMembers: a dry run, then the import, each its report; exportMembers streams the file back', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const dry = await client.importMembers(facility, CSV, { dry_run: true });
      assert.deepEqual(dry.counts, { rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
      assert.equal(dry.written, false);
      const real = await client.importMembers(facility, new TextEncoder().encode(CSV), {
        match_by: 'external_id',
      });
      assert.equal(real.written, true);

      const stream = await client.exportMembers(facility, { q: 'ann' });
      const text = await new Response(stream).text();
      const lines = text.trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[1], /,Ann,.*ann@example\.com/);
    });

    test('returnJob gives the job as the upload left it; getMemberImport and waitForMemberImport follow it', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const job = await client.importMembers(facility, CSV, {}, { returnJob: true });
      assert.equal(job.facility_id, facility);
      assert.ok(['queued', 'running', 'succeeded'].includes(job.state), job.state);
      assert.deepEqual(job.progress.rows_total, 2);
      const seen: MemberImport[] = [];
      const report = await client.waitForMemberImport(facility, job.id, {
        pollIntervalMs: 20,
        onProgress: (progress) => seen.push(progress),
      });
      assert.deepEqual(report.counts, { rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
      assert.equal(seen.at(-1)?.state, 'succeeded');
      assert.deepEqual((await client.getMemberImport(facility, job.id)).report, report);
      const listed = await client.listMemberImports(facility);
      assert.deepEqual(
        listed.imports.map((listedJob) => listedJob.id),
        [job.id],
      );
    });

    test('an upload whose answer was lost is sent again with its Idempotency-Key: one job, the members once', async () => {
      let lost = false;
      const client = clientOf({
        fetch: async (request) => {
          const response = await globalThis.fetch(request);
          if (request.method === 'POST' && !lost) {
            lost = true;
            await response.body?.cancel();
            throw new TypeError('fetch failed: the connection was reset');
          }
          return response;
        },
      });
      const facility = api.newFacility();
      const report = await client.importMembers(facility, CSV);
      assert.equal(lost, true);
      assert.deepEqual(report.counts, { rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
      assert.equal((await client.listMemberImports(facility)).imports.length, 1);
      const members = await api.get(`/admin/facilities/${facility}/members`, {
        authorization: `Bearer ${WITH_API_KEY.adminApiKey}`,
      });
      assert.equal(members.body.members.length, 2);
    });

    test('a file the service refuses is a ProblemError invalid_csv', async () => {
      const problem = await problemOf(clientOf().importMembers(api.newFacility(), 'nickname\nA\n'));
      assert.deepEqual([problem.status, problem.code], [400, 'invalid_csv']);
    });
  },
  WITH_API_KEY,
);

test('a job that could not finish is a MemberImportFailed with its error', async () => {
  const failed = {
    id: 3,
    facility_id: 1,
    state: 'failed',
    dry_run: false,
    match_by: 'none',
    on_error: 'abort',
    progress: { phase: 'writing', rows_done: 0, rows_total: 1 },
    report: null,
    error: { code: 'invalid_csv', message: 'The file holds more than 5 rows' },
    created_at: '2026-11-27T09:14:02.118Z',
    started_at: '2026-11-27T09:14:02.306Z',
    finished_at: '2026-11-27T09:14:02.406Z',
    expires_at: '2026-12-04T09:14:02.406Z',
  };
  const client = createClient({
    baseUrl: 'http://stub',
    apiKey: 'k',
    fetch: async () =>
      new Response(JSON.stringify(failed), { status: 202, headers: { 'content-type': 'application/json' } }),
  });
  const error = await client.importMembers(1, 'first_name\nAnn\n').then(
    () => assert.fail('expected MemberImportFailed'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof MemberImportFailed);
  assert.equal(error.code, 'invalid_csv');
  assert.equal(error.job.id, 3);
});
