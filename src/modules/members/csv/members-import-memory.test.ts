import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../../../test/harness.js';
import { npmStartCommand } from '../../../../test/service-process.js';

const FIXTURE = fileURLToPath(new URL('./member-import.fixture.ts', import.meta.url));
const ROWS = 50_000;
/** What the import may add to the process: the body as the test holds it (5.6 MB), a stored chunk, a chunk's rows, the file's keys, the report. */
const MAX_GROWTH_BYTES = 48 * 1024 * 1024;

for (const dialect of DIALECTS) {
  test(`[${dialect}] a 50,000-row file imports under npm start's memory flags, the process growing by less than 48 MB`, async () => {
    let url: string;
    let drop: () => Promise<void>;
    if (dialect === 'sqlite') {
      const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-import-')), 'import.db');
      url = `sqlite:${file}`;
      drop = async () => removeSqliteFiles(file);
    } else {
      ({ url, drop } = await createTestDatabase('postgres'));
    }
    after(drop);
    const { env, nodeArgs } = npmStartCommand();
    const flags = nodeArgs.filter((argument) => argument.startsWith('--'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...flags, '--import', 'tsx', FIXTURE, url, String(ROWS)],
      // An abort import tries its rows twice (its check, then its writes): on PostgreSQL, minutes on a busy machine.
      { env: { ...process.env, ...env }, timeout: 900_000 },
    );
    const result = JSON.parse(stdout);
    assert.equal(result.status, 202);
    assert.equal(result.state, 'succeeded');
    assert.deepEqual(result.counts, { rows: ROWS, created: ROWS, updated: 0, unchanged: 0, failed: 0 });
    const growth = result.rssPeak - result.rssBefore;
    console.log(
      `[${dialect}] ${ROWS} rows in ${result.seconds.toFixed(0)} s; the process grew by ${(growth / 1e6).toFixed(1)} MB`,
    );
    assert.ok(growth < MAX_GROWTH_BYTES, `the process grew by ${(growth / 1e6).toFixed(0)} MB`);
  });
}
