/**
 * A service that cannot start says why in one line that names the setting
 * to change, and exits 1: never a stack trace, never a hang.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { type CommandResult, runCli, STACK_LINE } from './cli-process.js';
import { DIALECTS } from './harness.js';
import { freePort } from './service-process.js';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = mkdtempSync(join(tmpdir(), 'fa-startup-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * `serve`, stopped after two minutes: a start that hangs fails the test (exit code null). Not a bound on
 * the start itself: loading the TypeScript sources alone can take tens of seconds on a busy machine.
 */
const serve = async (env: Record<string, string>) =>
  runCli(['serve'], { env: { PORT: String(await freePort()), ...env }, timeoutMs: 120_000 });

/** Exit 1 and, after the line naming the database, exactly one line that matches `explained`. */
function assertExplained(result: CommandResult, explained: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.doesNotMatch(result.stderr, STACK_LINE);
  const lines = result.stderr
    .trim()
    .split('\n')
    .filter((line) => !/^facility-admin: database /.test(line));
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], explained);
}

test('invalid settings: every one of them in one line, exit 1', async () => {
  const result = await serve({
    PORT: 'abc',
    LOG_LEVEL: 'loud',
    BASE_PATH: 'api',
    DATABASE_URL: 'sqlite::memory:',
  });
  assertExplained(result, /^facility-admin: invalid configuration: .*LOG_LEVEL.*PORT.*BASE_PATH/);
});

test('PostgreSQL unreachable: names the server and DATABASE_URL', {
  skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not among TEST_DATABASES',
}, async () => {
  const port = await freePort();
  const result = await serve({
    DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${port}/facility_admin`,
  });
  assertExplained(
    result,
    new RegExp(
      `cannot reach the PostgreSQL server at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\).*DATABASE_URL`,
    ),
  );
  assert.doesNotMatch(result.stderr, /hunter2/, 'the password is never printed');
});

test('PostgreSQL refusing: a missing database or role is named with what to change', {
  skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not among TEST_DATABASES',
}, async () => {
  const missingDatabase = new URL(POSTGRES_URL);
  missingDatabase.pathname = `/facility_admin_missing_${process.pid}`;
  assertExplained(
    await serve({ DATABASE_URL: missingDatabase.toString() }),
    /refused: database "facility_admin_missing_\d+" does not exist \(SQLSTATE 3D000\); create the database .*DATABASE_URL/,
  );
  const missingRole = new URL(POSTGRES_URL);
  missingRole.username = 'facility_admin_no_such_role';
  assertExplained(
    await serve({ DATABASE_URL: missingRole.toString() }),
    /refused: role "facility_admin_no_such_role" does not exist \(SQLSTATE 28000\); check the user in DATABASE_URL/,
  );
});

test('SQLite directory that cannot be created: names it and DATABASE_URL', async () => {
  const file = join(scratch, 'a-file');
  writeFileSync(file, 'not a directory');
  assertExplained(
    await serve({ DATABASE_URL: `sqlite:${file}/data/facility-admin.db` }),
    /cannot create the directory .*a-file.* for the SQLite database .*; set DATABASE_URL to a path in a writable directory$/,
  );
});

test('SQLite path not writable: names the file and DATABASE_URL', async () => {
  // Root writes anywhere it has permissions for, but no one creates files in sysfs.
  const directory = process.getuid?.() === 0 ? '/sys' : join(scratch, 'read-only');
  if (directory !== '/sys') mkdirSync(directory, { mode: 0o555 });
  assertExplained(
    await serve({ DATABASE_URL: `sqlite:${directory}/facility-admin.db` }),
    /cannot write the SQLite database .*facility-admin\.db .*; make the file and its directory writable, or set DATABASE_URL$/,
  );
});

test('a file that is not a SQLite database: names it and DATABASE_URL', async () => {
  const file = join(scratch, 'notes.txt');
  writeFileSync(file, 'x'.repeat(4096));
  assertExplained(
    await serve({ DATABASE_URL: `sqlite:${file}` }),
    /notes\.txt is not a usable SQLite database .*DATABASE_URL/,
  );
});

async function occupiedPort(): Promise<{ port: number; close: () => void }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, close: () => server.close() };
}

test('port in use: names the port and PORT', async () => {
  const taken = await occupiedPort();
  try {
    const result = await serve({ DATABASE_URL: 'sqlite::memory:', PORT: String(taken.port) });
    assert.equal(result.stderr.split('\n')[0], 'facility-admin: database sqlite::memory:');
    assertExplained(
      result,
      new RegExp(
        `cannot listen on 127\\.0\\.0\\.1:${taken.port}: the port is in use .*set PORT to a free port`,
      ),
    );
    assert.doesNotMatch(result.stdout, /http:\/\//, 'no console URL before the port is known to be free');
  } finally {
    taken.close();
  }
});

test('port in use with WORKERS: said once by the primary, before any console URL, and no fork again', async () => {
  const taken = await occupiedPort();
  try {
    const result = await serve({
      DATABASE_URL: `sqlite:${join(scratch, 'workers.db')}`,
      ADMIN_API_KEY: 'startup-test-admin-key',
      PORT: String(taken.port),
      WORKERS: '2',
    });
    assertExplained(result, /cannot listen on .*the port is in use .*PORT/);
    assert.doesNotMatch(result.stdout, /http:\/\//, 'no console URL before the port is known to be free');
  } finally {
    taken.close();
  }
});

test('an unknown HOST: names HOST', async () => {
  assertExplained(
    await serve({ DATABASE_URL: 'sqlite::memory:', HOST: 'no-such-host.invalid' }),
    /cannot listen on no-such-host\.invalid:\d+: cannot resolve the name .*set HOST/,
  );
});
