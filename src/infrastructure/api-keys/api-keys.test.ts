import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { eventually } from '../../../test/eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { revokeApiKey } from './api-key.repository.js';
import { createApiKey } from './api-key.service.js';

const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`API keys through the CLI [${dialect}]`, () => {
    let databaseUrl = '';
    let drop = async () => {};
    before(async () => {
      const database = await createTestDatabase(dialect);
      // The CLI runs in other processes, so SQLite needs a file, removed afterwards.
      const file = `/tmp/fa-keys-${process.pid}-${Date.now()}.db`;
      databaseUrl = dialect === 'sqlite' ? `sqlite:${file}` : database.url;
      drop = async () => {
        await database.drop();
        removeSqliteFiles(file);
      };
    });
    after(() => drop());

    const cli = (...args: string[]) =>
      run('node', ['--import', 'tsx', 'src/cli.ts', 'keys', ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl },
      });

    test('create prints only the key on stdout; it works until revoked (the next request on SQLite, once notified on PostgreSQL)', async () => {
      const created = await cli(
        ...['create', '--create', '--name', 'front desk', '--facilities', '7,8', '--role', 'viewer'],
      );
      const secret = created.stdout.trim();
      assert.match(secret, /^fa_[A-Za-z0-9_-]{43}$/);

      const listed = await cli('list', '--json');
      const keys = JSON.parse(listed.stdout);
      assert.equal(listed.stdout.includes(secret), false, 'list never shows a secret');
      const key = keys.find((k: { name: string }) => k.name === 'front desk');
      assert.deepEqual([key.role, key.facilityIds, key.revokedAt], ['viewer', [7, 8], null]);

      const app = await buildApp({ ...loadConfig({}), databaseUrl, authMode: 'api-key' }, { logger: false });
      after(() => app.close());
      const stored = JSON.stringify(await app.db.selectFrom('api_keys').selectAll().execute());
      assert.equal(stored.includes(secret.slice(3)), false, 'the database holds a hash, never the secret');
      const read = (facility: number) =>
        app.inject({
          url: `/admin/facilities/${facility}/policy`,
          headers: { authorization: `Bearer ${secret}` },
        });
      assert.equal((await read(7)).statusCode, 200);
      assert.equal((await read(9)).statusCode, 403);

      await cli('revoke', String(key.id));
      // SQLite sees another process's commit on the next request. On PostgreSQL the revocation's
      // NOTIFY tells every instance, so it takes effect when the notification arrives (milliseconds;
      // on a busy machine it can come after the CLI's exit).
      if (dialect === 'sqlite') assert.equal((await read(7)).statusCode, 401, 'refused on the next request');
      else await eventually('the revocation’s notification', async () => (await read(7)).statusCode === 401);
      const again = JSON.parse((await cli('list', '--json')).stdout);
      assert.notEqual(again.find((k: { id: number }) => k.id === key.id).revokedAt, null);
    });

    test('create makes a door key: it reads nothing, not even its own session', async () => {
      const created = await cli(
        ...['create', '--create', '--name', 'front door', '--facilities', '7', '--role', 'door'],
      );
      const secret = created.stdout.trim();
      assert.match(created.stderr, /\(door\)/);
      const key = JSON.parse((await cli('list', '--json')).stdout).find(
        (k: { name: string }) => k.name === 'front door',
      );
      assert.equal(key.role, 'door');
      const app = await buildApp({ ...loadConfig({}), databaseUrl, authMode: 'api-key' }, { logger: false });
      after(() => app.close());
      const headers = { authorization: `Bearer ${secret}` };
      assert.equal((await app.inject({ url: '/admin/facilities/7/members', headers })).statusCode, 403);
      assert.equal((await app.inject({ url: '/admin/session', headers })).statusCode, 403);
    });

    test('create refuses a bad scope with a clear message and exit code 1', async () => {
      await assert.rejects(cli('create', '--name', 'x'), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /--facilities <ids> or --all-facilities/);
        return true;
      });
      await assert.rejects(cli('create', '--name', 'x', '--facilities', 'a,b'), /positive facility ids/);
    });
  });
}

// PostgreSQL only: SQLite has no notifications to lose (it sees another process's commit on the next request).
describe('verified keys when the change notifications stop [postgres]', {
  skip: !DIALECTS.includes('postgres') && 'PostgreSQL is not among TEST_DATABASES',
}, () => {
  test('a key revoked while the listening connection is down is refused on the next request', async () => {
    const database = await createTestDatabase('postgres');
    const app = await buildApp(
      { ...loadConfig({}), databaseUrl: database.url, authMode: 'api-key' },
      { logger: false },
    );
    after(async () => {
      await app.close();
      await database.drop();
    });
    const { secret, key } = await createApiKey(app.db, {
      name: 'kiosk',
      role: 'admin',
      facilityIds: 'all',
    });
    const read = () =>
      app.inject({ url: '/admin/facilities/1/policy', headers: { authorization: `Bearer ${secret}` } });
    assert.equal((await read()).statusCode, 200);
    assert.equal((await read()).statusCode, 200, 'the verified key is now kept in memory');

    // Cut the listener off, then revoke: the revocation's notification reaches no one.
    const listeners = await sql<{ pid: number }>`select pid from pg_stat_activity
                where datname = current_database() and query like 'listen %'`.execute(app.db);
    const pids = listeners.rows.map((row) => row.pid);
    assert.equal(pids.length, 1, 'the app listens on one connection');
    await sql`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`.execute(app.db);
    // The server has ended the connection (and told the app so) once its backend is gone.
    await eventually('the listening connection to be ended', async () => {
      const left = await sql`select 1 from pg_stat_activity where pid = any(${pids}::int[])`.execute(app.db);
      return left.rows.length === 0;
    });
    await revokeApiKey(app.db, key.id, new Date().toISOString());
    assert.equal((await read()).statusCode, 401);
  });
});
