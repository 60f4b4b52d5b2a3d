/**
 * What operators rely on: health checks, Prometheus metrics and one
 * structured log line per request (never the API key's secret).
 */
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { removeSqliteFiles } from './harness.js';
import { startService } from './service-process.js';

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
  const before = Date.now();
  await app.inject({ url: '/healthz', headers: { 'x-request-id': 'log-line-2' } });
  const [line] = lines.filter((logged) => logged.reqId === 'log-line-2');
  assert.deepEqual(Object.keys(line), [
    ...['level', 'time', 'pid', 'hostname'],
    ...['reqId', 'method', 'route', 'status', 'ms', 'key_id', 'msg'],
  ]);
  assert.equal(line.level, 30);
  assert.ok((line.time as number) >= before && (line.time as number) <= Date.now());
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
    const response = await broken.inject({
      url: '/admin/facilities/4/members/1',
      headers: { 'x-request-id': 'fails-1' },
    });
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'internal_error');
    assert.doesNotMatch(response.body, /no such table|sqlite|members_elsewhere|\.ts:\d/i);
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

test('SIGTERM stops the service gracefully: exit code 0, the port closed, the first key printed once', async () => {
  const file = `/tmp/facility-admin-shutdown-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { AUTH_MODE: 'api-key', LOG_LEVEL: 'info' } });
  try {
    assert.equal((await fetch(`${service.baseUrl}/healthz`)).status, 200);
    assert.equal(service.output().match(/fa_[A-Za-z0-9_-]{43}/g)?.length, 1);
    await service.kill('SIGTERM');
    assert.equal(service.child.exitCode, 0);
    assert.match(service.output(), /shutting down/);
    await assert.rejects(fetch(`${service.baseUrl}/healthz`));
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('with ADMIN_API_KEY set, the first start creates no API key and prints none', async () => {
  const file = `/tmp/facility-admin-admin-key-${process.pid}.db`;
  const adminKey = 'operations-admin-key-0123456789';
  const service = await startService(`sqlite:${file}`, {
    env: { AUTH_MODE: 'api-key', ADMIN_API_KEY: adminKey, LOG_LEVEL: 'info' },
  });
  try {
    const served = await fetch(`${service.baseUrl}/admin/facilities/1/policy`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    assert.equal(served.status, 200);
    await service.kill('SIGTERM');
    assert.doesNotMatch(service.output(), /fa_[A-Za-z0-9_-]{43}|First start|shown only this once/);
    const database = openDatabase(`sqlite:${file}`);
    try {
      const { rows } = await sql<{ count: number }>`select count(*) as count from api_keys`.execute(
        database.db,
      );
      assert.equal(Number(rows[0].count), 0);
    } finally {
      await database.close();
    }
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('AUTH_MODE=none is announced at start even when LOG_LEVEL silences the log', async () => {
  const file = `/tmp/facility-admin-authless-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { AUTH_MODE: 'none', LOG_LEVEL: 'silent' } });
  try {
    assert.match(service.output(), /WARNING: AUTH_MODE=none: authentication is OFF/);
    assert.equal((await fetch(`${service.baseUrl}/admin/facilities/1/policy`)).status, 200);
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test('every answered request is logged, in whole lines, even when SIGTERM comes while requests are in flight', async () => {
  const file = `/tmp/facility-admin-log-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { LOG_LEVEL: 'info', WORKERS: '2' } });
  try {
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    assert.match(metrics, /^log_lines_dropped_total 0$/m);
    const requests = Array.from({ length: 150 }, (_, i) =>
      fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': `flush-${i}` } }),
    );
    await Promise.race(requests);
    await service.kill('SIGTERM');
    const answered = (await Promise.allSettled(requests)).filter(
      (result) => result.status === 'fulfilled' && result.value.status === 200,
    ).length;
    const logged = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    const ids = logged.filter((line) => line.msg === 'request').map((line) => String(line.reqId));
    assert.ok(answered > 0);
    assert.equal(new Set(ids.filter((id) => id.startsWith('flush-'))).size, answered);
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
  }
});

test("with little traffic a request's log line is written within seconds, not held back for a batch", async () => {
  const file = `/tmp/facility-admin-log-quiet-${process.pid}.db`;
  const service = await startService(`sqlite:${file}`, { env: { LOG_LEVEL: 'info' } });
  try {
    await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'quiet-1' } });
    const deadline = Date.now() + 5000;
    while (!service.output().includes('"reqId":"quiet-1"') && Date.now() < deadline) await sleep(50);
    assert.match(service.output(), /"reqId":"quiet-1"/);
  } finally {
    await service.kill('SIGKILL');
    removeSqliteFiles(file);
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
