/**
 * A database that cannot be reached answers 503 service_unavailable with
 * Retry-After, never 500, and the service recovers by itself when it is back.
 * So does a SQLite write that cannot get the database's write lock.
 * (The crash script, npm run test:crash -- --pg-restart, stops the whole server.)
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from './harness.js';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const skip = DIALECTS.includes('postgres') ? false : 'PostgreSQL is not among TEST_DATABASES';

let app: App;
let name = '';
let drop = async () => {};

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

before(async () => {
  if (skip) return;
  const database = await createTestDatabase('postgres');
  drop = database.drop;
  name = new URL(database.url).pathname.slice(1);
  app = await buildApp({ ...loadConfig({}), databaseUrl: database.url, authMode: 'none' }, { logger: false });
});

after(async () => {
  if (skip) return;
  await admin(`alter database ${name} allow_connections true`);
  await app.close();
  await drop();
});

test('PostgreSQL refusing connections: 503 with Retry-After on reads and writes, then recovery', {
  skip,
}, async () => {
  assert.equal((await app.inject({ url: '/admin/facilities/1/policy' })).statusCode, 200);
  await admin(`alter database ${name} allow_connections false`);
  await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
  for (const request of [
    { method: 'GET' as const, url: '/admin/facilities/1/policy' },
    { method: 'POST' as const, url: '/admin/facilities/1/members', payload: { first_name: 'Ann' } },
    { method: 'GET' as const, url: '/readyz' },
  ]) {
    const response = await app.inject(request);
    assert.equal(response.statusCode, 503, `${request.method} ${request.url}: ${response.body}`);
    assert.equal(response.json().code, 'service_unavailable');
    assert.ok(Number(response.headers['retry-after']) >= 1);
  }
  // Reads that arrive together share one query (src/db/postgres/batched-read.ts): each of them is answered 503.
  const together = await Promise.all(
    ['/admin/facilities/1/members/1', '/admin/facilities/1/members/2', '/admin/facilities/1/plans/1'].map(
      (url) => app.inject({ url }),
    ),
  );
  for (const response of together) {
    assert.equal(response.statusCode, 503, response.body);
    assert.equal(response.json().code, 'service_unavailable');
  }
  await admin(`alter database ${name} allow_connections true`);
  assert.equal((await app.inject({ url: '/admin/facilities/1/policy' })).statusCode, 200);
  const created = await app.inject({
    method: 'POST',
    url: '/admin/facilities/1/members',
    payload: { first_name: 'Bo' },
  });
  assert.equal(created.statusCode, 201);
  // A failed batch does not hold back the reads after it.
  const read = await app.inject({ url: `/admin/facilities/1/members/${created.json().id}` });
  assert.equal(read.statusCode, 200, read.body);
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] a write that cannot get the SQLite write lock is 503 with Retry-After: 1 and writes nothing`, {
    skip:
      dialect !== 'sqlite' &&
      'SQLite only: PostgreSQL locks rows, no connection can hold a write lock on the whole database',
  }, async () => {
    const file = join(tmpdir(), `facility-admin-busy-${process.pid}-${Date.now()}.db`);
    const database = openDatabase(`sqlite:${file}`);
    const busy = await buildApp(
      { ...loadConfig({}), databaseUrl: `sqlite:${file}`, authMode: 'none', rateLimitPerMinute: 0 },
      { database, logger: false },
    );
    const other = new SQLite(file);
    try {
      // The service waits 5 s for the lock; the test shortens that wait on the service's connection.
      await sql`pragma busy_timeout = 100`.execute(database.db);
      const members = '/admin/facilities/1/members';
      const created = await busy.inject({ method: 'POST', url: members, payload: { first_name: 'Ann' } });
      assert.equal(created.statusCode, 201, created.body);
      const ann = `${members}/${created.json().id}`;
      other.exec('begin exclusive');
      for (const request of [
        { method: 'POST' as const, url: members, payload: { first_name: 'Bo' } },
        { method: 'PATCH' as const, url: ann, payload: { notes: 'locked out' } },
        { method: 'DELETE' as const, url: ann },
      ]) {
        const response = await busy.inject(request);
        assert.equal(response.statusCode, 503, `${request.method} ${request.url}: ${response.body}`);
        assert.equal(response.json().code, 'service_unavailable');
        assert.equal(response.headers['retry-after'], '1');
      }
      other.exec('rollback');
      const list = await busy.inject({ url: members });
      assert.deepEqual(
        list.json().members.map((m: { first_name: string }) => m.first_name),
        ['Ann'],
      );
      assert.deepEqual((await busy.inject({ url: ann })).json(), created.json());
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
      await busy.close();
      await database.close();
      removeSqliteFiles(file);
    }
  });
}
