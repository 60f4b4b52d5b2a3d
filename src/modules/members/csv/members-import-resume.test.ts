/**
 * Import jobs that a process left part-way (it died between two chunks),
 * resumed by a fresh app on the same database, and an `on_error=abort`
 * import that undoes what it wrote when a row fails after its check passed:
 * on a SQLite file and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../../../../test/eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../../../test/harness.js';
import { type App, buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import { type Database, openDatabase } from '../../../db/database.js';
import { type BulkGovernor, createBulkGovernor } from '../../../jobs/bulk-governor.js';
import { importWorkerSettings } from '../../../modules.js';
import { claimImport } from './member-import.repository.js';
import { runImport } from './member-import.service.js';
import { isFinished, startImport } from './member-import-api.fixtures.js';
import { Stopping } from './member-import-chunks.js';

const ROWS = 20;
const CSV = `external_id,first_name,email\n${Array.from(
  { length: ROWS },
  (_, i) => `X${i + 1},Member${i + 1},m${i + 1}@example.com`,
).join('\n')}\n`;

for (const dialect of DIALECTS) {
  describe(`import jobs resumed and undone [${dialect}]`, () => {
    let url = '';
    let drop = async () => {};
    const opened: { app: App; database: Database }[] = [];
    let facilityCounter = 0;

    before(async () => {
      if (dialect === 'sqlite') {
        const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-resume-')), 'resume.db');
        url = `sqlite:${file}`;
        drop = async () => removeSqliteFiles(file);
      } else {
        ({ url, drop } = await createTestDatabase('postgres'));
      }
    });
    after(async () => {
      for (const { app, database } of opened) {
        await app.close();
        await database.close();
      }
      await drop();
    });

    /** An app on the test's database; with `idle`, its import worker never runs (the "process" is ours). */
    const appOn = async (idle: boolean) => {
      const database = openDatabase(url);
      const app = await buildApp(
        { ...loadConfig({}), databaseUrl: url, authMode: 'none' },
        { database, logger: false },
      );
      opened.push({ app, database });
      if (idle) await app.importWorker.stop();
      return app;
    };

    /**
     * Uploads the file with an idle app, then runs its job in this test as a process would, and has
     * that process die (it stops where `stopAfter` says, its lease left held) and its lease end.
     */
    /** One app whose worker never runs: the test runs its jobs as the process that dies. */
    let idle: App | undefined;
    const leftPartWay = async (
      query: string,
      stopAfter: number,
      governor: BulkGovernor = createBulkGovernor(),
    ) => {
      idle ??= await appOn(true);
      const app = idle;
      const facility = ++facilityCounter;
      // As bytes: the fixture then needs only the app.
      const started = await startImport({ app } as never, facility, Buffer.from(CSV), query);
      assert.equal(started.status, 202, started.text);
      const now = new Date().toISOString();
      const lease = { token: 'dying', until: new Date(Date.now() + 60_000).toISOString() };
      const job = await claimImport(app.db, now, lease);
      assert.equal(job?.id, started.body.id);
      let calls = 0;
      const settings = {
        ...importWorkerSettings(app.config, dialect, governor, () => new Date()),
        chunkMaxRows: 3,
        chunkMs: 60_000,
        stopping: () => ++calls > stopAfter,
      };
      const run = runImport(
        app.db,
        job as never,
        settings,
        () => ({ id: started.body.id, ...lease }),
        () => {},
      );
      return { app, facility, location: String(started.headers.location), run, settings };
    };

    const expireLease = (app: App, id: number) =>
      app.db
        .updateTable('member_imports')
        .set({ locked_until: '2000-01-01T00:00:00.000Z' })
        .where('id', '=', id)
        .execute();

    const finishedOn = async (app: App, location: string) => {
      // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
      let job: any = { state: 'queued' };
      await eventually(`the job at ${location} to finish`, async () => {
        job = JSON.parse((await app.inject({ url: location })).body);
        return isFinished(job);
      });
      return job;
    };

    const membersOf = async (app: App, facility: number) =>
      JSON.parse((await app.inject({ url: `/admin/facilities/${facility}/members?limit=1000` })).body)
        .members as Record<string, unknown>[];

    for (const [mode, query, stopAfter, phase, rowsDone] of [
      ['skip', '?on_error=skip&match_by=external_id', 2, 'writing', 6],
      ['abort, after its check', '?match_by=external_id', 10, 'writing', 6],
      ['a dry run', '?dry_run=true', 2, 'checking', 6],
    ] as const) {
      test(`${mode}: left after two chunks, it is resumed by a fresh app from where it stopped, each row once`, async () => {
        const left = await leftPartWay(query, stopAfter);
        await assert.rejects(left.run, Stopping);
        const stopped = JSON.parse((await left.app.inject({ url: left.location })).body);
        assert.deepEqual(
          [stopped.state, stopped.progress.phase, stopped.progress.rows_done],
          ['running', phase, rowsDone],
        );
        await expireLease(left.app, stopped.id);

        const fresh = await appOn(false);
        fresh.importWorker.start();
        const done = await finishedOn(fresh, left.location);
        assert.equal(done.state, 'succeeded');
        assert.deepEqual(done.report.counts, {
          rows: ROWS,
          created: ROWS,
          updated: 0,
          unchanged: 0,
          failed: 0,
        });
        const members = await membersOf(fresh, left.facility);
        if (phase === 'checking') return assert.deepEqual(members, []);
        assert.equal(new Set(members.map((m) => m.external_id)).size, ROWS);
        assert.equal(members.length, ROWS);
        const audit = JSON.parse(
          (await fresh.inject({ url: `/admin/facilities/${left.facility}/audit-events?limit=1000` })).body,
        ).audit_events;
        assert.equal(audit.filter((e: { action: string }) => e.action === 'create').length, ROWS);
      });
    }

    test('abort: a row that fails while written, after the check passed, has every write of the job undone', async () => {
      idle ??= await appOn(true);
      const app = idle;
      const facility = facilityCounter + 1;
      const members = `/admin/facilities/${facility}/members`;
      const post = async (body: object) =>
        JSON.parse((await app.inject({ method: 'POST', url: members, payload: body })).body);
      const before = await post({ first_name: 'Old', last_name: 'Before', external_id: 'X1' });
      const file = `external_id,first_name,last_name,email,status\nX1,Old,After,,frozen\n${Array.from(
        { length: 8 },
        (_, i) => `X${i + 2},M${i + 2},,m${i + 2}@example.com,`,
      ).join('\n')}\n`;
      // Someone takes row 8's email once the job has written two chunks.
      const base = createBulkGovernor();
      let interfered: Record<string, unknown> | undefined;
      const governor: BulkGovernor = {
        ...base,
        turn: async () => {
          await base.turn();
          const job = await app.db
            .selectFrom('member_imports')
            .select(['phase', 'rows_done'])
            .where('facility_id', '=', facility)
            .executeTakeFirst();
          if (interfered === undefined && job?.phase === 'writing' && job.rows_done >= 6) {
            interfered = await post({ first_name: 'Quick', email: 'm8@example.com' });
          }
        },
      };
      facilityCounter += 1;
      const started = await startImport(
        { app } as never,
        facility,
        Buffer.from(file),
        '?match_by=external_id',
      );
      const lease = { token: 'undoing', until: new Date(Date.now() + 60_000).toISOString() };
      const job = await claimImport(app.db, new Date().toISOString(), lease);
      const settings = {
        ...importWorkerSettings(app.config, dialect, governor, () => new Date()),
        chunkMaxRows: 3,
        chunkMs: 60_000,
        stopping: () => false,
      };
      await runImport(
        app.db,
        job as never,
        settings,
        () => ({ id: started.body.id, ...lease }),
        () => {},
      );

      const done = JSON.parse((await app.inject({ url: String(started.headers.location) })).body);
      assert.equal(done.state, 'failed');
      assert.equal(done.error.code, 'member_email_conflict');
      assert.match(
        done.error.message,
        /^Row 8 \(line 9\) failed while the import was being written, after every row had passed the check/,
      );
      assert.match(
        done.error.message,
        /the 5 members it had created are deleted and the 1 it had changed restored\.$/,
      );
      assert.equal(done.report.written, false);
      assert.deepEqual(done.report.counts, { rows: 8, created: 6, updated: 1, unchanged: 0, failed: 1 });
      assert.deepEqual(
        done.report.errors.map((e: { row: number; code: string }) => [e.row, e.code]),
        [[8, 'member_email_conflict']],
      );

      const left = await membersOf(app, facility);
      assert.deepEqual(
        left.map((m) => [m.id, m.last_name, m.status]),
        [
          [before.id, 'Before', 'active'],
          [interfered?.id, null, 'active'],
        ],
      );
      const freezes = JSON.parse((await app.inject({ url: `${members}/${before.id}/freezes` })).body).freezes;
      assert.deepEqual(
        freezes.map((f: { cancelled_at: string | null }) => f.cancelled_at !== null),
        [true],
      );
      const audit = JSON.parse(
        (
          await app.inject({
            url: `/admin/facilities/${facility}/audit-events?limit=1000&resource_type=member`,
          })
        ).body,
      ).audit_events;
      const actions = (id: unknown) =>
        audit
          .filter((e: { resource_id: string }) => e.resource_id === String(id))
          .map((e: { action: string }) => e.action);
      assert.deepEqual(actions(before.id), ['create', 'update', 'update']);
      const createdByJob = audit.filter(
        (e: { action: string; request_id: string }) => e.action === 'hard_delete',
      );
      assert.equal(createdByJob.length, 5);
      for (const deleted of createdByJob)
        assert.deepEqual(actions(deleted.resource_id), ['create', 'hard_delete']);
    });
  });
}
