/**
 * What operators rely on: health checks, Prometheus metrics and one
 * structured log line per request (never the API key's secret).
 */
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { appWith } from './app-with.js';
import { assertProblem } from './harness.js';
import { inject } from './inject.js';

const lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let app: App;
const database = openDatabase('sqlite::memory:');

before(async () => {
  app = await buildApp(
    { ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'api-key' },
    { database, logger: { level: 'info', stream: logStream } },
  );
});

after(async () => {
  await app.close();
  await database.close();
});

test('/healthz and /readyz answer 200 without a key', async () => {
  assert.deepEqual((await app.inject({ url: '/healthz' })).json(), { status: 'ok' });
  assert.deepEqual((await app.inject({ url: '/readyz' })).json(), {
    status: 'ok',
    database: 'ok',
    migrations: 'ok',
  });
});

test('/readyz is 503 service_unavailable when the database cannot be reached', async () => {
  const broken = openDatabase('sqlite::memory:');
  const lonely = await buildApp(
    { ...loadConfig({}), databaseUrl: 'sqlite::memory:' },
    { database: broken, logger: false },
  );
  await broken.close();
  const response = await lonely.inject({ url: '/readyz' });
  assert.equal(response.statusCode, 503);
  assert.equal(response.json().code, 'service_unavailable');
  assert.ok(response.headers['retry-after']);
  await lonely.close();
});

test('/readyz is 503 service_unavailable while a migration is pending', async () => {
  const { app: behind, database: pending } = await appWith({});
  // The newest migration not applied, as on a database an older version of the service migrated.
  const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(
    pending.db,
  );
  await sql`delete from kysely_migration where name = ${rows[0].name}`.execute(pending.db);
  const response = await inject(behind, { url: '/readyz' });
  const problem = assertProblem(response, 503, 'service_unavailable');
  assert.equal(problem.detail, 'Database migrations are pending');
  assert.equal(response.headers['retry-after'], '5');
});

test('/metrics counts requests and their latency by route and status, with process metrics', async () => {
  const count = async () => {
    const metrics = (await app.inject({ url: '/metrics' })).body;
    const found =
      /http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} (\d+)/.exec(
        metrics,
      );
    return Number(found?.[1] ?? 0);
  };
  const before = await count();
  await app.inject({ url: '/healthz' });
  await app.inject({ url: '/healthz' });
  assert.equal(await count(), before + 2);
  const metrics = (await app.inject({ url: '/metrics' })).body;
  assert.match(
    metrics,
    /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz",status="200"\}/,
  );
  assert.match(metrics, /process_resident_memory_bytes \d+/);
});

test('one log line per request with request id, route, status, latency and key id, never the secret', async () => {
  const { secret, key } = await createApiKey(app.db, { name: 'logged', role: 'admin', facilityIds: [4] });
  lines.length = 0;
  await app.inject({
    url: '/admin/facilities/4/policy',
    headers: { authorization: `Bearer ${secret}`, 'x-request-id': 'log-line-1' },
  });
  const requestLines = lines.filter((line) => line.reqId === 'log-line-1');
  assert.equal(requestLines.length, 1);
  const [line] = requestLines;
  assert.equal(line.route, '/admin/facilities/:facility_id/policy');
  assert.equal(line.status, 200);
  assert.equal(typeof line.ms, 'number');
  assert.equal(line.key_id, key.id);
  assert.equal(JSON.stringify(lines).includes(secret), false);
});

test('the request line is a pino line: level, time, pid and hostname first, msg last', async () => {
  lines.length = 0;
  await app.inject({ url: '/healthz', headers: { 'x-request-id': 'log-line-2' } });
  const [line] = lines.filter((logged) => logged.reqId === 'log-line-2');
  assert.deepEqual(Object.keys(line), [
    ...['level', 'time', 'pid', 'hostname'],
    ...['reqId', 'method', 'route', 'status', 'ms', 'key_id', 'msg'],
  ]);
  assert.equal(line.level, 30);
  // Milliseconds since the epoch, as pino writes them (not seconds, not a string).
  assert.ok(
    Number.isInteger(line.time) && (line.time as number) > Date.parse('2020-01-01'),
    String(line.time),
  );
  assert.equal(line.pid, process.pid);
  assert.equal(line.hostname, hostname());
  assert.deepEqual(
    [line.method, line.route, line.status, line.key_id, line.msg],
    ['GET', '/healthz', 200, null, 'request'],
  );
});

test('a request that matches no route is logged with route null', async () => {
  lines.length = 0;
  await app.inject({ url: '/no/such/path', headers: { 'x-request-id': 'log-line-3' } });
  const [line] = lines.filter((logged) => logged.reqId === 'log-line-3');
  assert.deepEqual([line.route, line.status], [null, 404]);
});

test('no request lines when the log level is above info', async () => {
  const quiet = await buildApp(
    { ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'none' },
    { database, logger: { level: 'warn', stream: logStream } },
  );
  lines.length = 0;
  await quiet.inject({ url: '/healthz', headers: { 'x-request-id': 'log-line-4' } });
  await quiet.close();
  assert.deepEqual(lines, []);
});

test('an unexpected failure is logged once as an error with the request id and stack, never sent', async () => {
  const failing = openDatabase('sqlite::memory:');
  const broken = await buildApp(
    { ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'none' },
    { database: failing, logger: { level: 'info', stream: logStream } },
  );
  try {
    await sql`alter table members rename to members_elsewhere`.execute(broken.db);
    lines.length = 0;
    const response = await inject(broken, {
      url: '/admin/facilities/4/members/1',
      headers: { 'x-request-id': 'fails-1' },
    });
    assertProblem(response, 500, 'internal_error');
    assert.doesNotMatch(response.text, /no such table|sqlite|members_elsewhere|\.ts:\d/i);
    const logged = lines.filter((line) => line.reqId === 'fails-1');
    assert.deepEqual(
      logged.map((line) => [line.level, line.msg]),
      [
        [50, 'unexpected failure'],
        [30, 'request'],
      ],
    );
    assert.match(String((logged[0].err as { stack: string }).stack), /no such table: members/);
  } finally {
    await broken.close();
    await failing.close();
  }
});

test('a trailing slash names the same resource: /plans/ is the list of plans', async () => {
  const response = await app.inject({
    url: '/admin/facilities/4/plans/',
    headers: { authorization: 'Bearer x' },
  });
  assert.equal(response.statusCode, 401);
  const open = await app.inject({ url: '/healthz/' });
  assert.equal(open.statusCode, 200);
});
