import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pino from 'pino';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../test/harness.js';
import { type Database, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { type PeriodicJob, startJobs } from './job-runner.js';

const log = pino({ level: 'silent' });
const JOB_PROCESS = fileURLToPath(new URL('./job-process.fixture.ts', import.meta.url));

/** Runs the job for `forMs` in a process of its own; its run times and count. */
async function runJobInProcess(url: string, everyMs: number, forMs: number) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', JOB_PROCESS, url, String(everyMs), String(forMs)],
    { timeout: forMs + 30_000 },
  );
  const ranAt = [...stdout.matchAll(/^ran (\d+)$/gm)].map((match) => Number(match[1]));
  const runs = Number(/^runs (\d+)$/m.exec(stdout)?.[1]);
  return { ranAt, runs };
}

/**
 * Two runners on one database: in one process over two connections (two pools
 * on one PostgreSQL database, two connections to one SQLite file), and in two
 * real processes, as two instances or two workers run.
 */
for (const dialect of DIALECTS) {
  describe(`periodic jobs [${dialect}]`, () => {
    const instances: Database[] = [];
    let url = '';
    let drop: () => Promise<void> = async () => {};
    before(async () => {
      if (dialect === 'sqlite') {
        const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-jobs-')), 'jobs.db');
        url = `sqlite:${file}`;
        drop = async () => removeSqliteFiles(file);
      } else {
        const database = await createTestDatabase('postgres');
        url = database.url;
        drop = database.drop;
      }
      instances.push(openDatabase(url), openDatabase(url));
      await migrateToLatest(instances[0].db);
    });
    after(async () => {
      for (const instance of instances) await instance.close();
      await drop();
    });

    test('each due run happens once across two instances, none twice', async () => {
      const ran: { instance: number; at: number }[] = [];
      const jobFor = (instance: number): PeriodicJob => ({
        name: 'count-runs',
        everyMs: 300,
        run: async () => {
          ran.push({ instance, at: Date.now() });
          await sleep(20);
          return undefined;
        },
      });
      const started = Date.now();
      const runners = instances.map((instance, index) => startJobs(instance.db, [jobFor(index)], log));
      await sleep(2000);
      await Promise.all(runners.map((runner) => runner.stop()));
      const elapsed = Date.now() - started;
      // At most one run per 300 ms slot since the first: two instances each running every slot would give twice as many.
      assert.ok(ran.length <= Math.floor(elapsed / 300) + 1, `${ran.length} runs in ${elapsed} ms`);
      assert.ok(ran.length >= 3, `${ran.length} runs in ${elapsed} ms`);
      for (let i = 1; i < ran.length; i++) {
        assert.ok(
          ran[i].at - ran[i - 1].at >= 150,
          `runs ${i - 1} and ${i} only ${ran[i].at - ran[i - 1].at} ms apart`,
        );
      }
      const byInstance = runners.map((runner) => runner.stats()[0].runs);
      assert.equal(byInstance[0] + byInstance[1], ran.length);
    });

    test('two processes on one database: each due run happens once', async () => {
      const [first, second] = await Promise.all([
        runJobInProcess(url, 400, 4000),
        runJobInProcess(url, 400, 4000),
      ]);
      assert.equal(first.ranAt.length, first.runs);
      assert.equal(second.ranAt.length, second.runs);
      const ranAt = [...first.ranAt, ...second.ranAt].sort((a, b) => a - b);
      assert.ok(ranAt.length >= 4, `${ranAt.length} runs in two processes`);
      // Two processes that took the same due run would run within a few ms of each other; half the
      // period tells that apart from a loaded machine's delay between a claim and the run it starts.
      for (let i = 1; i < ranAt.length; i++) {
        assert.ok(
          ranAt[i] - ranAt[i - 1] >= 200,
          `runs ${i - 1} and ${i} only ${ranAt[i] - ranAt[i - 1]} ms apart`,
        );
      }
      const span = ranAt[ranAt.length - 1] - ranAt[0];
      assert.ok(ranAt.length <= Math.floor((span + 200) / 400) + 1, `${ranAt.length} runs in ${span} ms`);
    });

    test('a failing run is counted, recorded for operators, and the job runs again', async () => {
      let calls = 0;
      const runner = startJobs(
        instances[0].db,
        [
          {
            name: 'fails-once',
            everyMs: 100,
            run: async () => {
              calls += 1;
              if (calls === 1) throw new Error('disk on fire');
              return undefined;
            },
          },
        ],
        log,
      );
      const row = () =>
        instances[1].db
          .selectFrom('periodic_jobs')
          .selectAll()
          .where('name', '=', 'fails-once')
          .executeTakeFirst();
      await sleep(150);
      for (let waited = 0; calls < 2 && waited < 2000; waited += 50) await sleep(50);
      await runner.stop();
      const [stats] = runner.stats();
      assert.equal(stats.failures, 1);
      assert.ok(stats.runs >= 2, `${stats.runs} runs`);
      assert.equal((await row())?.last_error, null, 'the later success clears the error');
      assert.equal((await row())?.leased_until, null, 'a stopped runner holds no lease');
    });

    test('a lease left by a process that died is taken over once it expires', async () => {
      const now = Date.now();
      await instances[0].db
        .insertInto('periodic_jobs')
        .values({
          name: 'orphaned',
          next_run_at: new Date(now - 1000).toISOString(),
          leased_until: new Date(now + 400).toISOString(),
        })
        .execute();
      let ranAt: number | undefined;
      const runner = startJobs(
        instances[1].db,
        [
          {
            name: 'orphaned',
            everyMs: 100,
            run: async () => {
              ranAt ??= Date.now();
              return undefined;
            },
          },
        ],
        log,
      );
      for (let waited = 0; ranAt === undefined && waited < 2000; waited += 25) await sleep(25);
      await runner.stop();
      assert.ok(ranAt !== undefined, 'it ran');
      assert.ok(ranAt >= now + 400, `it ran ${now + 400 - ranAt} ms before the lease ended`);
    });
  });
}
