/**
 * The CSV import at scale: 50,000 members (the most one import takes) into
 * an empty facility, on a SQLite file or PostgreSQL, in this process, as the
 * job the service runs: the upload (POST, 202), then the job to its end,
 * followed in the database (not over HTTP: a request would make the bulk
 * governor share the process). Prints the upload's and each phase's time,
 * rows a second, the time the governor held bulk work back, and the
 * process's peak RSS against its RSS before.
 *   npm run bench:import -- [--db sqlite|postgres] [--rows 50000] [--on-error abort|skip] [--dry-run]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase, removeSqliteFiles } from '../test/harness.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '50000' },
    'on-error': { type: 'string', default: 'abort' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-import-')), 'import.db');
const target =
  values.db === 'sqlite'
    ? { url: `sqlite:${file}`, drop: async () => {} }
    : await createTestDatabase('postgres');
const database = openDatabase(target.url);
const app = await buildApp(
  { ...loadConfig({}), databaseUrl: target.url, authMode: 'none' },
  { database, logger: false },
);

const lines = ['external_id;first_name;last_name;email;phone;date_of_birth;role;notes'];
for (let i = 1; i <= rows; i++) {
  lines.push(
    `EXT-${i};First${i};"Last; ${i}";member${i}@example.com;+49 30 ${i};1990-01-01;member;"A note\r\nover two lines"`,
  );
}
const csv = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);
lines.length = 0;

const rssBefore = process.memoryUsage.rss();
let peak = rssBefore;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);
const started = performance.now();
const response = await app.inject({
  method: 'POST',
  url: `/admin/facilities/1/members/import?on_error=${values['on-error']}&match_by=external_id&dry_run=${values['dry-run']}`,
  headers: { 'content-type': 'text/csv' },
  payload: csv,
});
const uploaded = performance.now();
if (response.statusCode !== 202)
  throw new Error(`the upload was answered ${response.statusCode}: ${response.body}`);
const { id } = JSON.parse(response.body);
const phases = new Map<string, number>();
let job: { state: string; phase: string | null; report: string | null; error_message: string | null };
for (;;) {
  job = await database.db
    .selectFrom('member_imports')
    .select(['state', 'phase', 'report', 'error_message'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (job.phase !== null && !phases.has(job.phase)) phases.set(job.phase, performance.now());
  if (job.state === 'succeeded' || job.state === 'failed') break;
  await sleep(50);
}
const finished = performance.now();
clearInterval(sampler);
const seconds = (finished - started) / 1000;
const phaseTimes = [...phases].map(([phase, at], index, all) => {
  const end = all[index + 1]?.[1] ?? finished;
  return `${phase} ${((end - at) / 1000).toFixed(1)} s`;
});
const counts = job.report === null ? job.error_message : JSON.parse(job.report).counts;
console.log(
  `${values.db}: ${rows.toLocaleString()} rows (${(csv.length / 1024 / 1024).toFixed(1)} MiB), on_error=${values['on-error']}` +
    `${values['dry-run'] ? ', dry run' : ''}: ${seconds.toFixed(1)} s, ${Math.round(rows / seconds).toLocaleString()} rows/s ` +
    `(upload ${((uploaded - started) / 1000).toFixed(1)} s, ${phaseTimes.join(', ')}; governor held back ` +
    `${(app.bulkGovernor.waitedMs() / 1000).toFixed(1)} s); ${job.state}, counts ${JSON.stringify(counts)}; ` +
    `RSS ${(rssBefore / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB`,
);
await app.close();
await database.close();
await target.drop();
if (values.db === 'sqlite') removeSqliteFiles(file);
