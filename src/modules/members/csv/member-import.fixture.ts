/**
 * Imports `rows` generated members into facility 1 of the database at `url`,
 * in this process, as a job it follows to its end, and prints one JSON line:
 * the upload's status, the job's state and counts,
 * the seconds it took, and the process's RSS before and at its peak. Run with
 * npm start's memory flags by members-import-memory.test.ts.
 *   node --import tsx member-import.fixture.ts <database url> <rows>
 */
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import { openDatabase } from '../../../db/database.js';

const [url, rowsArgument] = process.argv.slice(2);
const rows = Number(rowsArgument);
const database = openDatabase(url);
const app = await buildApp(
  { ...loadConfig({}), databaseUrl: url, authMode: 'none' },
  { database, logger: false },
);

// Built as bytes, 1,000 lines at a time: one 5.6 MB string (two-byte, for its BOM) would take
// a fifth of the 64 MB heap before the import starts.
const chunks = [
  Buffer.from('\uFEFFexternal_id;first_name;last_name;email;phone;date_of_birth;role;notes\r\n'),
];
for (let first = 1; first <= rows; first += 1000) {
  let text = '';
  for (let i = first; i < first + 1000 && i <= rows; i++) {
    text += `EXT-${i};First${i};"Last; ${i}";member${i}@example.com;+49 30 ${i};1990-01-01;member;"A note\r\nover two lines"\r\n`;
  }
  chunks.push(Buffer.from(text));
}
const csv = Buffer.concat(chunks);
chunks.length = 0;

const rssBefore = process.memoryUsage.rss();
let rssPeak = rssBefore;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
}, 20);
const started = performance.now();
const response = await app.inject({
  method: 'POST',
  url: '/admin/facilities/1/members/import?match_by=external_id',
  headers: { 'content-type': 'text/csv' },
  payload: csv,
});
// Followed in the database, not over HTTP: a request would make the bulk governor share the process.
const { id } = JSON.parse(response.body);
let job = { state: 'queued', report: null as string | null };
while (response.statusCode === 202 && job.state !== 'succeeded' && job.state !== 'failed') {
  await new Promise((resolve) => setTimeout(resolve, 100));
  job = await database.db
    .selectFrom('member_imports')
    .select(['state', 'report'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
process.stdout.write(
  `${JSON.stringify({ status: response.statusCode, state: job.state, counts: job.report && JSON.parse(job.report).counts, seconds, bytes: csv.length, rssBefore, rssPeak })}\n`,
);
await app.close();
await database.close();
