/**
 * One process running one periodic job for a while, for the test that starts
 * two of them on one database: prints a line `ran <unix ms>` per run, then
 * `runs <n>` when it stops.
 *   node --import tsx src/jobs/job-process.fixture.ts <database url> <everyMs> <forMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { openDatabase } from '../db/database.js';
import { startJobs } from './job-runner.js';

const [url, everyMs, forMs] = process.argv.slice(2);
const database = openDatabase(url);
const runner = startJobs(
  database.db,
  [
    {
      name: 'count-runs-across-processes',
      everyMs: Number(everyMs),
      run: async () => {
        process.stdout.write(`ran ${Date.now()}\n`);
        await sleep(20);
        return undefined;
      },
    },
  ],
  pino({ level: 'silent' }),
);
await sleep(Number(forMs));
await runner.stop();
await database.close();
process.stdout.write(`runs ${runner.stats()[0].runs}\n`);
