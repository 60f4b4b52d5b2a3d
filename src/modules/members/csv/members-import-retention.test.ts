import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Api, assertProblem, describeEachDialect } from '../../../../test/harness.js';
import { importCsv } from './member-import-api.fixtures.js';
import { pruneMemberImports } from './member-imports.job.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const later = (days: number) => () => new Date(Date.now() + days * DAY_MS);

/** An upload whose process died: its job row still `receiving`, its lease ended, a chunk of its bytes kept. */
async function abandonedUpload(api: Api, facility: number): Promise<number> {
  const row = await api.app.db
    .insertInto('member_imports')
    .values({
      facility_id: facility,
      state: 'receiving',
      dry_run: 0,
      match_by: 'none',
      on_error: 'abort',
      api_key_id: null,
      api_key_name: 'a process that died',
      request_id: null,
      lease_token: 'dead',
      locked_until: new Date(Date.now() - 60_000).toISOString(),
      created_at: new Date(Date.now() - 120_000).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await api.app.db
    .insertInto('member_import_chunks')
    .values({ import_id: id, seq: 0, bytes: Buffer.from('first_name\nAnn\n') })
    .execute();
  return id;
}

const chunksOf = async (api: Api, id: number) =>
  (await api.app.db.selectFrom('member_import_chunks').select('seq').where('import_id', '=', id).execute())
    .length;

describeEachDialect('member imports: retention', (api) => {
  test('a finished job is kept IMPORT_REPORT_RETENTION_DAYS, then pruned; an abandoned upload goes at once', async () => {
    const facility = api.newFacility();
    const imported = await importCsv(api, facility, 'first_name\nAnn\n');
    const location = `/admin/facilities/${facility}/members/imports/${imported.job?.id}`;
    const upload = await abandonedUpload(api, api.newFacility());

    const prune = pruneMemberImports(7);
    assert.deepEqual(await prune.run(api.app.db, later(6)), {
      removed: 0,
      abandonedUploads: 1,
      strayChunks: 0,
    });
    assert.equal((await api.get(location)).status, 200);
    assert.equal(await chunksOf(api, upload), 0);
    assert.equal(
      (await api.app.db.selectFrom('member_imports').select('id').where('id', '=', upload).execute()).length,
      0,
    );

    await prune.run(api.app.db, later(8));
    assertProblem(await api.get(location), 404, 'import_not_found');
  });

  test('a lowered setting prunes jobs that ended before it, whatever their expires_at said', async () => {
    const facility = api.newFacility();
    const imported = await importCsv(api, facility, 'first_name\nBo\n');
    await pruneMemberImports(1).run(api.app.db, later(2));
    assertProblem(
      await api.get(`/admin/facilities/${facility}/members/imports/${imported.job?.id}`),
      404,
      'import_not_found',
    );
  });

  test("the bytes of a finished job whose process stopped before deleting them are pruned; the job's report stays", async () => {
    const facility = api.newFacility();
    const imported = await importCsv(api, facility, 'first_name\nCy\n');
    const id = Number(imported.job?.id);
    await api.app.db
      .insertInto('member_import_chunks')
      .values({ import_id: id, seq: 0, bytes: Buffer.from('first_name\nCy\n') })
      .execute();
    const outcome = await pruneMemberImports(7).run(api.app.db, later(0));
    assert.equal(outcome?.strayChunks, 1);
    assert.equal(await chunksOf(api, id), 0);
    assert.equal(
      (await api.get(`/admin/facilities/${facility}/members/imports/${id}`)).body.report.counts.created,
      1,
    );
  });
});
