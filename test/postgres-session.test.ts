/**
 * The answers do not depend on the PostgreSQL server's own settings: a
 * database whose DateStyle and TimeZone differ from the defaults is read the
 * same, because every session the service opens sets both.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestDatabase, DIALECTS } from './harness.js';

const skip = DIALECTS.includes('postgres') ? false : 'PostgreSQL is not among TEST_DATABASES';

let app: App;
let drop = async () => {};

before(async () => {
  if (skip) return;
  const database = await createTestDatabase('postgres');
  drop = database.drop;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const name = (await client.query('select current_database() as name')).rows[0].name;
  await client.query(`alter database ${name} set datestyle = 'SQL, DMY'`);
  await client.query(`alter database ${name} set timezone = 'America/New_York'`);
  await client.end();
  app = await buildApp({ ...loadConfig({}), databaseUrl: database.url, authMode: 'none' }, { logger: false });
});

after(async () => {
  await app?.close();
  await drop();
});

test('a server with DateStyle SQL, DMY and another TimeZone answers ISO dates and UTC times', {
  skip,
}, async () => {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/facilities/1/members',
    payload: { first_name: 'Ann', date_of_birth: '2000-02-03', joined_on: '2026-01-04' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const read = await app.inject({ method: 'GET', url: `/admin/facilities/1/members/${created.json().id}` });
  assert.equal(read.statusCode, 200, read.body);
  const member = read.json();
  assert.equal(member.date_of_birth, '2000-02-03');
  assert.equal(member.joined_on, '2026-01-04');
  assert.match(member.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(member.created_at, created.json().created_at);
  const policy = await app.inject({ method: 'GET', url: '/admin/facilities/1/policy' });
  assert.equal(policy.statusCode, 200, policy.body);
});
