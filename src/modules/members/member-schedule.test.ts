/**
 * The sweeper (member-schedule.job.ts): what is due is applied without any
 * read, once, however many instances sweep at once, and by a listening
 * service on its own. Instances share one PostgreSQL database or one SQLite
 * file; the second instance of the concurrent sweep is another process
 * (member-schedule.fixture.ts), as workers are.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually } from '../../../test/eventually.js';
import {
  createTestDatabase,
  DIALECTS,
  removeSqliteFiles,
  type TestClock,
  testClock,
} from '../../../test/harness.js';
import { type App, buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { type Database, openDatabase } from '../../db/database.js';
import { applyMemberSchedule } from './member-schedule.job.js';

const MEMBERS = 20;
const FIXTURE = fileURLToPath(new URL('./member-schedule.fixture.ts', import.meta.url));

for (const dialect of DIALECTS) {
  describe(`member schedule sweeper [${dialect}]`, () => {
    const clock: TestClock = testClock('2026-06-30T12:00:00.000Z');
    const instances: { app: App; database: Database }[] = [];
    let drop: () => Promise<void> = async () => {};
    let url = '';

    before(async () => {
      if (dialect === 'sqlite') {
        const file = join(tmpdir(), `facility-admin-sweeper-${process.pid}-${Date.now()}.db`);
        url = `sqlite:${file}`;
        drop = async () => removeSqliteFiles(file);
      } else {
        const created = await createTestDatabase('postgres');
        url = created.url;
        drop = created.drop;
      }
      const config = { ...loadConfig({}), databaseUrl: url, authMode: 'none' as const };
      for (let i = 0; i < 2; i++) {
        const database = openDatabase(url);
        instances.push({
          database,
          app: await buildApp(config, { database, logger: false, now: clock.now }),
        });
      }
    });

    after(async () => {
      for (const { app, database } of instances) {
        await app.close();
        await database.close();
      }
      await drop();
    });

    /** The sweeper of another process on the same database, started and waiting for `go`. */
    async function otherInstance(databaseUrl: string, now: Date) {
      const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
        env: { ...process.env, DATABASE_URL: databaseUrl, NOW: now.toISOString() },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      assert.equal((await lines.next()).value, 'ready');
      return {
        go: async () => {
          child.stdin.write('go\n');
          const outcome = JSON.parse((await lines.next()).value as string) as { settled: number };
          await once(child, 'exit');
          return outcome;
        },
      };
    }

    const statuses = async (facility: number) =>
      (
        await instances[0].database.db
          .selectFrom('members')
          .select(['status', 'status_reason'])
          .where('facility_id', '=', facility)
          .orderBy('id')
          .execute()
      ).map((row) => `${row.status}:${row.status_reason}`);

    const systemChanges = async (facility: number) =>
      instances[0].database.db
        .selectFrom('audit_events')
        .select(['resource_id', 'changes'])
        .where('facility_id', '=', facility)
        .where('api_key_name', '=', 'system')
        .where('resource_type', '=', 'member')
        .execute();

    async function membersEndingOn(facility: number, endsOn: string) {
      const app = instances[0].app;
      for (let i = 0; i < MEMBERS; i++) {
        const created = await app.inject({
          method: 'POST',
          url: `/admin/facilities/${facility}/members`,
          payload: { first_name: `M${i}`, ends_on: endsOn },
        });
        assert.equal(created.statusCode, 201, created.body);
      }
    }

    test('two instances sweeping at once make each change once', async () => {
      clock.set('2026-06-30T12:00:00.000Z');
      const facility = 1;
      await membersEndingOn(facility, '2026-06-30');
      const freeze = await instances[0].app.inject({
        method: 'POST',
        url: `/admin/facilities/${facility}/members/1/freezes`,
        payload: { starts_on: '2026-07-01', ends_on: '2026-07-05' },
      });
      assert.equal(freeze.statusCode, 201, freeze.body);
      clock.set('2026-07-01T00:00:00.000Z');
      const other = await otherInstance(url, clock.now());
      const runs = await Promise.all([
        applyMemberSchedule.run(instances[0].database.db, clock.now),
        other.go(),
      ]);
      const settled = runs.reduce((sum, run) => sum + Number(run?.settled), 0);
      assert.equal(settled, MEMBERS, 'each member settled by one of the two');
      assert.deepEqual(await statuses(facility), Array(MEMBERS).fill('cancelled:expired'));
      const changes = await systemChanges(facility);
      // Member 1's term expired on the day its freeze was to start: one change, to cancelled.
      assert.equal(changes.length, MEMBERS, 'one system change per member');
      assert.equal(new Set(changes.map((c) => c.resource_id)).size, MEMBERS);
      const again = await applyMemberSchedule.run(instances[1].database.db, clock.now);
      assert.deepEqual(again, { settled: 0 });
    });

    test('a member not yet due in its time zone is left for later', async () => {
      clock.set('2026-06-30T12:00:00.000Z');
      const facility = 2;
      await instances[0].app.inject({
        method: 'PATCH',
        url: `/admin/facilities/${facility}/policy`,
        payload: { timezone: 'America/Los_Angeles' },
      });
      await membersEndingOn(facility, '2026-06-30');
      clock.set('2026-07-01T06:59:00.000Z');
      await applyMemberSchedule.run(instances[0].database.db, clock.now);
      assert.deepEqual(new Set(await statuses(facility)), new Set(['active:null']));
      clock.set('2026-07-01T07:00:00.000Z');
      await applyMemberSchedule.run(instances[0].database.db, clock.now);
      assert.deepEqual(new Set(await statuses(facility)), new Set(['cancelled:expired']));
    });

    test('a listening service sweeps by itself, with no read', async () => {
      clock.set('2026-08-31T12:00:00.000Z');
      const facility = 3;
      await membersEndingOn(facility, '2026-08-31');
      clock.set('2026-09-01T00:00:00.000Z');
      // The job runs at start: the first tick claims its row, due since the earlier tests' runs did not.
      await instances[0].database.db
        .updateTable('periodic_jobs')
        .set({ next_run_at: new Date(0).toISOString() })
        .execute();
      await instances[1].app.listen({ port: 0, host: '127.0.0.1' });
      await eventually('every member cancelled by the schedule', async () =>
        (await statuses(facility)).every((s) => s === 'cancelled:expired'),
      );
      assert.deepEqual(new Set(await statuses(facility)), new Set(['cancelled:expired']));
    });
  });
}
