/**
 * The CSV import at scale: 50,000 members (the most one import takes) into
 * an empty facility, on a SQLite file or PostgreSQL, in this process; prints
 * the time, rows a second, and the process's peak RSS against its RSS before.
 *   npm run bench:import -- [--db sqlite|postgres] [--rows 50000] [--on-error abort|skip]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase } from '../test/harness.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '50000' },
    'on-error': { type: 'string', default: 'abort' },
  },
});
const rows = Number(values.rows);
const url =
  values.db === 'sqlite'
    ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'facility-admin-import-')), 'import.db')}`
    : (await createTestDatabase('postgres')).url;
const database = openDatabase(url);
const app = await buildApp(
  { ...loadConfig({}), databaseUrl: url, authMode: 'none' },
  { database, logger: false },
);

const lines = ['external_id;first_name;last_name;email;phone;date_of_birth;role;notes'];
for (let i = 1; i <= rows; i++) {
  lines.push(
    `EXT-${i};First${i};"Last; ${i}";member${i}@example.com;+49 30 ${i};1990-01-01;member;"A note\r\nover two lines"`,
  );
}
const csv = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);

const rssBefore = process.memoryUsage.rss();
let peak = rssBefore;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 20);
const started = performance.now();
const response = await app.inject({
  method: 'POST',
  url: `/admin/facilities/1/members/import?on_error=${values['on-error']}&match_by=external_id`,
  headers: { 'content-type': 'text/csv' },
  payload: csv,
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const report = JSON.parse(response.body);
console.log(
  `${values.db}: ${rows.toLocaleString()} rows (${(csv.length / 1024 / 1024).toFixed(1)} MiB) in ${seconds.toFixed(1)} s, ` +
    `${Math.round(rows / seconds).toLocaleString()} rows/s; status ${response.statusCode}, counts ${JSON.stringify(report.counts)}; ` +
    `RSS ${(rssBefore / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB`,
);
await app.close();
await database.close();
