/**
 * A database that cannot be reached answers 503 service_unavailable with
 * Retry-After, never 500, and the service recovers by itself when it is back.
 * (The crash script, npm run test:crash -- --pg-restart, stops the whole server.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestDatabase, DIALECTS } from './harness.js';

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
  // Reads that arrive together share one query (src/db/batched-read.ts): each of them is answered 503.
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
