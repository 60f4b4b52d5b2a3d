import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'kysely';
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
      let status = (await read(7)).statusCode;
      for (let waited = 0; status !== 401 && dialect === 'postgres' && waited < 2000; waited += 20) {
        await setTimeout(20);
        status = (await read(7)).statusCode;
      }
      assert.equal(status, 401);
      const again = JSON.parse((await cli('list', '--json')).stdout);
      assert.notEqual(again.find((k: { id: number }) => k.id === key.id).revokedAt, null);
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

if (DIALECTS.includes('postgres')) {
  describe('verified keys when the change notifications stop [postgres]', () => {
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
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and query like 'listen %'`.execute(app.db);
      await setTimeout(200);
      await revokeApiKey(app.db, key.id, new Date().toISOString());
      assert.equal((await read()).statusCode, 401);
    });
  });
}
