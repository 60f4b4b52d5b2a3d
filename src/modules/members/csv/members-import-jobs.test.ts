import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Api, assertProblem, describeEachDialect } from '../../../../test/harness.js';
import { finishedJob, importCsv, startImport } from './member-import-api.fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const importsUrl = (facility: number) => `/admin/facilities/${facility}/members/imports`;

/** A job of another process, running under a lease that has not ended: the facility's unfinished import. */
async function runningElsewhere(api: Api, facility: number): Promise<number> {
  const row = await api.app.db
    .insertInto('member_imports')
    .values({
      facility_id: facility,
      state: 'running',
      phase: 'writing',
      dry_run: 0,
      match_by: 'none',
      on_error: 'skip',
      api_key_id: null,
      api_key_name: 'another process',
      request_id: null,
      rows_total: 10,
      lease_token: 'elsewhere',
      locked_until: new Date(Date.now() + 60 * 60_000).toISOString(),
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

describeEachDialect('member imports as jobs', (api) => {
  test('202 with Location and the job; the job runs to its end, keeps its report and says when it expires', async () => {
    const facility = api.newFacility();
    const started = await startImport(
      api,
      facility,
      'first_name,email\nAnn,ann@example.com\nBo,nope\n',
      '?on_error=skip',
    );
    assert.equal(started.status, 202, started.text);
    const job = started.body;
    assert.equal(started.headers.location, `${importsUrl(facility)}/${job.id}`);
    assert.deepEqual(
      [job.facility_id, job.dry_run, job.match_by, job.on_error, job.progress.rows_total, job.error],
      [facility, false, 'none', 'skip', 2, null],
    );
    assert.ok(['queued', 'running', 'succeeded'].includes(job.state), job.state);
    if (job.state !== 'succeeded') assert.equal(job.report, null);

    const done = await finishedJob(api, String(started.headers.location));
    assert.equal(done.state, 'succeeded');
    assert.deepEqual(done.progress, { phase: 'writing', rows_done: 2, rows_total: 2 });
    assert.deepEqual(done.report, {
      dry_run: false,
      written: true,
      counts: { rows: 2, created: 1, updated: 0, unchanged: 0, failed: 1 },
      errors: [
        { row: 2, line: 3, column: 'email', code: 'validation_error', message: 'must be a valid email' },
      ],
      errors_omitted: 0,
    });
    assert.ok(done.started_at !== null && done.finished_at !== null);
    assert.equal(Date.parse(done.expires_at) - Date.parse(done.finished_at), 7 * DAY_MS);
    const list = await api.get(importsUrl(facility));
    assert.deepEqual(list.body, { imports: [done], next_cursor: null });
  });

  test('wait= answers 202 with the finished job and its report when the file is small', async () => {
    const facility = api.newFacility();
    const started = await startImport(api, facility, 'first_name\nAnn\n', '?dry_run=true&wait=30');
    assert.equal(started.status, 202);
    assert.equal(started.body.state, 'succeeded');
    assert.deepEqual(started.body.progress, { phase: 'checking', rows_done: 1, rows_total: 1 });
    assert.deepEqual(started.body.report.counts, {
      rows: 1,
      created: 1,
      updated: 0,
      unchanged: 0,
      failed: 0,
    });
    assert.equal((await api.get(`/admin/facilities/${facility}/members`)).body.members.length, 0);
    assertProblem(await startImport(api, facility, 'first_name\nAnn\n', '?wait=31'), 400, 'validation_error');
  });

  test('one unfinished import per facility: another is 409 import_in_progress naming it; other facilities go on', async () => {
    const facility = api.newFacility();
    const running = await runningElsewhere(api, facility);
    const refused = await startImport(api, facility, 'first_name\nAnn\n');
    const body = assertProblem(refused, 409, 'import_in_progress');
    assert.match(body.detail, new RegExp(`/admin/facilities/${facility}/members/imports/${running};`));
    assert.equal(refused.headers.connection, 'close');
    assert.equal((await importCsv(api, api.newFacility(), 'first_name\nBo\n')).status, 200);

    await api.app.db
      .updateTable('member_imports')
      .set({ state: 'succeeded' })
      .where('id', '=', running)
      .execute();
    const after = await importCsv(api, facility, 'first_name\nAnn\n');
    assert.deepEqual(after.body.counts, { rows: 1, created: 1, updated: 0, unchanged: 0, failed: 0 });
  });

  test("an Idempotency-Key retry while its job runs gets the first 202 again, not a 409; another's job is 404", async () => {
    const facility = api.newFacility();
    const key = { 'idempotency-key': 'jobs-retry-1' };
    const first = await startImport(api, facility, 'first_name\nAnn\n', '', key);
    await finishedJob(api, String(first.headers.location));
    // The facility busy again, as when the first answer was lost while its job still ran.
    await runningElsewhere(api, facility);
    const again = await startImport(api, facility, 'first_name\nAnn\n', '', key);
    assert.equal(again.status, 202, again.text);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.body.id, first.body.id);
    const reused = await startImport(api, facility, 'first_name\nBo\n', '', key);
    assertProblem(reused, 422, 'idempotency_key_reused');
    assert.equal((await api.get(`/admin/facilities/${facility}/members`)).body.members.length, 1);
    const other = api.newFacility();
    assertProblem(await api.get(`${importsUrl(other)}/${first.body.id}`), 404, 'import_not_found');
    assertProblem(await api.get(`${importsUrl(facility)}/999999`), 404, 'import_not_found');
  });

  test('a list pages by id with next_cursor', async () => {
    const facility = api.newFacility();
    for (const name of ['Ann', 'Bo', 'Cy']) await importCsv(api, facility, `first_name\n${name}\n`);
    const first = await api.get(`${importsUrl(facility)}?limit=2`);
    assert.equal(first.body.imports.length, 2);
    const second = await api.get(`${importsUrl(facility)}?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual([second.body.imports.length, second.body.next_cursor], [1, null]);
    assert.ok(second.body.imports[0].id > first.body.imports[1].id);
  });
});
