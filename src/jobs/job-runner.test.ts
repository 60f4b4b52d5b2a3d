/**
 * Periodic jobs run once per due time across every process. Each run is
 * recorded with its claim as the job's row holds it while the run holds the
 * lease (the time it started and the next due time it set), so the checks
 * read data, not the clock: of two runs in a row, the later one started at or
 * after the due time the earlier one set. Two runners each running every due
 * time, or claiming one due time twice, break that.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { eventually } from '../../test/eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../test/harness.js';
import { systemClock } from '../core/clock.js';
import { type Database, type Db, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { type PeriodicJob, startJobs } from './job-runner.js';

const log = pino({ level: 'silent' });
const JOB_PROCESS = fileURLToPath(new URL('./job-process.fixture.ts', import.meta.url));

/** A run's claim: when it started, and the next due time it set. */
interface Claim {
  started: string;
  nextRunAt: string;
}

/** The claim a run holds, read from the job's row during the run (no other claim can change it meanwhile). */
async function claimOf(db: Db, name: string): Promise<Claim> {
  const row = await db
    .selectFrom('periodic_jobs')
    .select(['last_started_at', 'next_run_at'])
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  // Text on SQLite, a Date on PostgreSQL (timestamptz): compared as ISO strings.
  return {
    started: new Date(row.last_started_at as string).toISOString(),
    nextRunAt: new Date(row.next_run_at).toISOString(),
  };
}

/** Each run started at or after the due time the run before it set: no due time ran twice. */
function assertOnePerDueTime(claims: Claim[]): void {
  const ordered = [...claims].sort((a, b) => a.started.localeCompare(b.started));
  for (let i = 1; i < ordered.length; i++) {
    assert.ok(
      ordered[i].started >= ordered[i - 1].nextRunAt,
      `run ${i} started at ${ordered[i].started}, before the due time ${ordered[i - 1].nextRunAt} that run ${i - 1} set`,
    );
  }
}

/** The job in a process of its own until `stop`; its claims as it prints them. */
function runJobInProcess(url: string, everyMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', JOB_PROCESS, url, String(everyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    claims: (): Claim[] =>
      [...output.matchAll(/^ran (\S+) (\S+)$/gm)].map((match) => ({
        started: match[1],
        nextRunAt: match[2],
      })),
    async stop(): Promise<number> {
      child.stdin.end();
      await exited;
      return Number(/^runs (\d+)$/m.exec(output)?.[1]);
    },
  };
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
      const claims: Claim[] = [];
      const job: PeriodicJob = {
        name: 'count-runs',
        everyMs: 100,
        run: async (db) => {
          claims.push(await claimOf(db, 'count-runs'));
          // A run that takes a while, as a real one does: the other instance's tick falls inside it.
          await sleep(20);
          return undefined;
        },
      };
      const runners = instances.map((instance) => startJobs(instance.db, [job], log, systemClock));
      try {
        await eventually('five runs', () => claims.length >= 5);
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
      }
      assertOnePerDueTime(claims);
      assert.equal(new Set(claims.map((claim) => claim.started)).size, claims.length, 'one run per claim');
      const byInstance = runners.map((runner) => runner.stats()[0].runs);
      assert.equal(byInstance[0] + byInstance[1], claims.length);
    });

    test('two processes on one database: each due run happens once', async () => {
      const processes = [runJobInProcess(url, 100), runJobInProcess(url, 100)];
      const all = () => processes.flatMap((p) => p.claims());
      let runs: number[];
      try {
        await eventually('five runs in the two processes', () => all().length >= 5, 60_000);
      } finally {
        runs = await Promise.all(processes.map((p) => p.stop()));
      }
      assert.deepEqual(
        runs,
        processes.map((p) => p.claims().length),
        'each process ran what it printed',
      );
      assertOnePerDueTime(all());
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
        systemClock,
      );
      const row = () =>
        instances[1].db
          .selectFrom('periodic_jobs')
          .selectAll()
          .where('name', '=', 'fails-once')
          .executeTakeFirst();
      try {
        await eventually('a run after the failure', () => runner.stats()[0].runs >= 2);
      } finally {
        await runner.stop();
      }
      const [stats] = runner.stats();
      assert.equal(stats.failures, 1);
      assert.equal((await row())?.last_error, null, 'the later success clears the error');
      assert.equal((await row())?.leased_until, null, 'a stopped runner holds no lease');
    });

    test('a lease left by a process that died is taken over once it expires', async () => {
      const now = Date.now();
      const leasedUntil = new Date(now + 400).toISOString();
      await instances[0].db
        .insertInto('periodic_jobs')
        .values({
          name: 'orphaned',
          next_run_at: new Date(now - 1000).toISOString(),
          leased_until: leasedUntil,
        })
        .execute();
      let taken: Claim | undefined;
      const runner = startJobs(
        instances[1].db,
        [
          {
            name: 'orphaned',
            everyMs: 100,
            run: async (db) => {
              taken ??= await claimOf(db, 'orphaned');
              return undefined;
            },
          },
        ],
        log,
        systemClock,
      );
      let claim: Claim;
      try {
        claim = await eventually('the orphaned job taken over', () => taken);
      } finally {
        await runner.stop();
      }
      assert.ok(
        claim.started >= leasedUntil,
        `taken at ${claim.started}, while the lease ran to ${leasedUntil}`,
      );
    });
  });
}
