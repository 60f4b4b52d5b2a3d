/**
 * The `facility-admin` command as an operator meets it: its version, its
 * answer to a typo, which database it works on, and that it never creates
 * a database nobody asked for.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from './cli-process.js';
import { createTestDatabase, DIALECTS } from './harness.js';

const scratch = mkdtempSync(join(tmpdir(), 'fa-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('--version prints the package version', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const result = await runCli(['--version']);
  assert.deepEqual([result.code, result.stdout], [0, `${version}\n`]);
});

test('a mistyped command says it is unknown, suggests the right one and prints help', async () => {
  const result = await runCli(['srve']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /unknown command 'srve'/);
  assert.match(result.stderr, /Did you mean serve\?/);
  assert.match(result.stderr, /Usage: facility-admin \[options\] \[command\]/);
  assert.doesNotMatch(result.stderr, /too many arguments/);
});

test('an unknown option says so and prints the help of its command', async () => {
  const result = await runCli(['keys', 'list', '--jsn'], { cwd: scratch });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /unknown option '--jsn'/);
  assert.match(result.stderr, /Usage: facility-admin keys list \[options\]/);
});

test('keys from a directory without the database: refused, the path named, no file created', async () => {
  const elsewhere = mkdtempSync(join(scratch, 'elsewhere-'));
  for (const args of [
    ['keys', 'list'],
    ['keys', 'create', '--name', 'x', '--all-facilities'],
    ['keys', 'revoke', '1'],
  ]) {
    const result = await runCli(args, { cwd: elsewhere });
    assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stdout, '');
    const expected = join(elsewhere, 'data', 'facility-admin.db');
    assert.ok(result.stderr.includes(`no SQLite database at ${expected}`), result.stderr);
    assert.match(result.stderr, /set DATABASE_URL .*--create/);
  }
  assert.equal(existsSync(join(elsewhere, 'data')), false);
});

test('keys create --create creates the SQLite database; stdout holds only the secret', async () => {
  const directory = mkdtempSync(join(scratch, 'create-'));
  const file = join(directory, 'data', 'facility-admin.db');
  const created = await runCli(['keys', 'create', '--create', '--name', 'first', '--all-facilities'], {
    cwd: directory,
  });
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^fa_[A-Za-z0-9_-]{43}\n$/);
  assert.ok(existsSync(file));
  const listed = await runCli(['keys', 'list', '--json'], { cwd: directory });
  assert.deepEqual(
    JSON.parse(listed.stdout).map((key: { name: string }) => key.name),
    ['first'],
  );
});

test('migrate creates a missing SQLite database, by design, and says which', async () => {
  const file = join(scratch, 'migrated', 'facility-admin.db');
  const result = await runCli(['migrate'], { env: { DATABASE_URL: `sqlite:${file}` } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^applied: 0001_initial, /);
  assert.equal(result.stderr, `facility-admin: database sqlite:${file}\n`);
  assert.ok(existsSync(file));
});

for (const dialect of DIALECTS) {
  describe(`every command that opens a database names it on stderr [${dialect}]`, () => {
    test('migrate, keys create, keys list and keys revoke', async () => {
      const database = await createTestDatabase(dialect);
      const file = join(scratch, `named-${dialect}.db`);
      const url = dialect === 'sqlite' ? `sqlite:${file}` : database.url;
      const expected = dialect === 'sqlite' ? `sqlite:${file}` : database.url;
      try {
        const env = { DATABASE_URL: url };
        const commands = [
          ['migrate'],
          ['keys', 'create', '--name', 'named', '--facilities', '1'],
          ['keys', 'list', '--json'],
          ['keys', 'revoke', '1'],
        ];
        for (const args of commands) {
          const result = await runCli(args, { env });
          assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
          assert.equal(result.stderr.split('\n')[0], `facility-admin: database ${expected}`);
          assert.doesNotMatch(result.stdout, /facility-admin: database/);
        }
      } finally {
        await database.drop();
      }
    });
  });
}

test('a PostgreSQL password is never printed', {
  skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not among TEST_DATABASES',
}, async () => {
  const result = await runCli(['migrate'], {
    env: { DATABASE_URL: 'postgres://someone:hunter2@127.0.0.1:1/facility_admin' },
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^facility-admin: database postgres:\/\/someone@127\.0\.0\.1:1\/facility_admin$/m,
  );
  assert.doesNotMatch(result.stderr, /hunter2/);
});
