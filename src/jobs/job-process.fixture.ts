/**
 * One process running one periodic job until told to stop, for the test that
 * starts two of them on one database: prints a line
 * `ran <last_started_at> <next_run_at>` per run, the claim it runs under as
 * the job's row holds it, and `runs <n>` once its stdin closes.
 *   node --import tsx src/jobs/job-process.fixture.ts <database url> <everyMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { systemClock } from '../core/clock.js';
import { openDatabase } from '../db/database.js';
import { startJobs } from './job-runner.js';

const NAME = 'count-runs-across-processes';
const [url, everyMs] = process.argv.slice(2);
const database = openDatabase(url);
const runner = startJobs(
  database.db,
  [
    {
      name: NAME,
      everyMs: Number(everyMs),
      run: async (db) => {
        // While the run holds the lease no other process can claim: the row is this run's claim.
        const row = await db
          .selectFrom('periodic_jobs')
          .select(['last_started_at', 'next_run_at'])
          .where('name', '=', NAME)
          .executeTakeFirstOrThrow();
        const iso = (value: unknown) => new Date(value as string).toISOString();
        process.stdout.write(`ran ${iso(row.last_started_at)} ${iso(row.next_run_at)}\n`);
        // A run that takes a while, as a real one does: another process's tick falls inside it.
        await sleep(20);
        return undefined;
      },
    },
  ],
  pino({ level: 'silent' }),
  systemClock,
);
process.stdin.resume();
await new Promise((resolve) => process.stdin.once('end', resolve));
await runner.stop();
await database.close();
process.stdout.write(`runs ${runner.stats()[0].runs}\n`);
