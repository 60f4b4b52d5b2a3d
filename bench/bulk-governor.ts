/**
 * What the bulk governor costs and buys: another facility's point reads
 * during a CSV import, against the same reads alone, with bulk work held to
 * BULK_WORK_SHARE (50) and not held back (100), in one run, rounds
 * interleaved. The service runs as a child process (WORKERS=1) on a SQLite
 * file or PostgreSQL; the reads come from autocannon or wrk (bench/load.ts).
 * Prints, per share: reads a second alone and during the import (and the
 * ratio), and the import's seconds.
 *   npx tsx bench/bulk-governor.ts [--db sqlite|postgres] [--rows 20000] [--rounds 2] [--duration 5]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createTestDatabase, removeSqliteFiles } from '../test/harness.js';
import { startService } from '../test/service-process.js';
import { runLoad } from './load.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
  },
});
const rows = Number(values.rows);
const duration = Number(values.duration);
const csv = `external_id;first_name;email\n${Array.from(
  { length: rows },
  (_, i) => `EXT-${i};First${i};member${i}@example.com`,
).join('\n')}\n`;

async function round(share: number, facility: number) {
  const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-governor-')), 'governor.db');
  const target =
    values.db === 'sqlite'
      ? { url: `sqlite:${file}`, drop: async () => {} }
      : await createTestDatabase('postgres');
  const service = await startService(target.url, {
    env: { BULK_WORK_SHARE: String(share), LOG_LEVEL: 'error' },
  });
  try {
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${service.baseUrl}/admin/facilities/2/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: `Reader${i}` }),
      });
      ids.push(((await response.json()) as { id: number }).id);
    }
    const reads = ids.map((id) => ({ method: 'GET', path: `/admin/facilities/2/members/${id}` }));
    const load = () =>
      runLoad({ url: service.baseUrl, requests: reads, headers: {}, connections: 8, duration, warmup: 1 });
    const alone = await load();
    const started = performance.now();
    const upload = await fetch(
      `${service.baseUrl}/admin/facilities/${facility}/members/import?on_error=skip`,
      {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: csv,
      },
    );
    const location = `${service.baseUrl}${upload.headers.get('location')}`;
    const during = await load();
    let state = '';
    while (state !== 'succeeded' && state !== 'failed') {
      await sleep(250);
      state = ((await (await fetch(location)).json()) as { state: string }).state;
    }
    const importSeconds = (performance.now() - started) / 1000;
    return { alone: alone.rps, during: during.rps, importSeconds };
  } finally {
    await service.kill();
    await target.drop();
    if (values.db === 'sqlite') removeSqliteFiles(file);
  }
}

const results = new Map<number, { alone: number; during: number; importSeconds: number }[]>();
for (let r = 0; r < Number(values.rounds); r++) {
  for (const share of r % 2 === 0 ? [50, 100] : [100, 50]) {
    const result = await round(share, 1);
    results.set(share, [...(results.get(share) ?? []), result]);
    console.log(
      `${values.db} BULK_WORK_SHARE=${share}: reads ${result.alone.toFixed(0)}/s alone, ${result.during.toFixed(0)}/s ` +
        `during the import (${(result.during / result.alone).toFixed(2)} x); the import ${result.importSeconds.toFixed(1)} s ` +
        `(${rows.toLocaleString()} rows)`,
    );
  }
}
