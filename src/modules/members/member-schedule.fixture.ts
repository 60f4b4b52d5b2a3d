/**
 * Another instance of the service's sweeper, for member-schedule.test.ts:
 * opens DATABASE_URL, says `ready`, and on `go` (stdin) runs the schedule job
 * once at NOW, then prints what it did as JSON and exits.
 */
import { openDatabase } from '../../db/database.js';
import { applyMemberSchedule } from './member-schedule.job.js';

const database = openDatabase(process.env.DATABASE_URL as string);
const now = new Date(process.env.NOW as string);
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  const outcome = await applyMemberSchedule.run(database.db, () => now);
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  await database.close();
  process.exit(0);
});
