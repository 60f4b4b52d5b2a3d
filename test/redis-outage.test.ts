/**
 * The rate limit while its Redis is down (docs/operations.md, A Redis
 * outage): counted per process, said once in the log, shown by /readyz and
 * /metrics, and shared again when Redis is back.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { freePort } from './service-process.js';

const KEY = 'redis-outage-test-admin-key';

const get = (app: App) =>
  app.inject({ url: '/admin/facilities/1/policy', headers: { authorization: `Bearer ${KEY}` } });

/** Waits for a fresh window when this one ends within 5 s: requests that straddled two would be counted apart. */
async function awayFromWindowEnd(windowMs: number): Promise<void> {
  const leftInWindow = windowMs - (Date.now() % windowMs);
  if (leftInWindow < 5000) await sleep(leftInWindow + 50);
}

/** An app whose log lines are collected, with the admin key KEY and a Redis key prefix of its own. */
async function appWith(overrides: Partial<Config>) {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const database = openDatabase('sqlite::memory:');
  const config = {
    ...loadConfig({}),
    adminApiKey: KEY,
    redisKeyPrefix: `fa-test-${randomUUID()}:`,
    ...overrides,
  };
  const app = await buildApp(config, { database, logger: { level: 'info', stream } });
  after(async () => {
    await app.close();
    await database.close();
  });
  return { app, lines };
}

test('with Redis unreachable the limit holds per process, and no request waits for Redis', async () => {
  const { app } = await appWith({
    redisUrl: 'redis://127.0.0.1:1',
    rateLimitPerMinute: 2,
    rateLimitWindowMs: 60_000,
  });
  await awayFromWindowEnd(60_000);
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    const response = await get(app);
    statuses.push([response.statusCode, response.headers['ratelimit-remaining']]);
    assert.ok(Date.now() - started < 1000, 'a request does not wait for the missing Redis');
  }
  assert.deepEqual(statuses, [
    [200, '1'],
    [200, '0'],
    [429, '0'],
  ]);
});

const REDIS_DOWN = 'redis unavailable; rate limits are counted per process until it is back';

test('Redis unreachable: one warning, not one per reconnection attempt or per request', async () => {
  const { app, lines } = await appWith({ redisUrl: 'redis://127.0.0.1:1' });
  // ioredis tries again every 50 ms, 100 ms, … up to 2 s: a dozen attempts in these 6 s.
  for (let i = 0; i < 12; i++) {
    assert.equal((await get(app)).statusCode, 200);
    await sleep(500);
  }
  const warnings = lines.filter((line) => line.level >= 40);
  assert.deepEqual(
    warnings.map((line) => [line.level, line.msg]),
    [[40, REDIS_DOWN]],
  );
});

test('/readyz and /metrics show whether Redis answers; the service stays ready without it', async () => {
  const down = await appWith({ redisUrl: 'redis://127.0.0.1:1' });
  const up = await appWith({ redisUrl: 'redis://127.0.0.1:6379' });
  const { app: without } = await appWith({ redisUrl: undefined });
  const ready = async (app: App) => {
    const response = await app.inject({ url: '/readyz' });
    const metrics = (await app.inject({ url: '/metrics' })).body;
    return [response.statusCode, response.json().redis, /^redis_up (\d)$/m.exec(metrics)?.[1]];
  };
  assert.deepEqual(await ready(down.app), [200, 'unavailable', '0']);
  assert.deepEqual(await ready(up.app), [200, 'ok', '1']);
  assert.deepEqual(await ready(without), [200, undefined, undefined]);
});

test('when Redis comes back, counting is shared again and the log says so', async () => {
  const port = await freePort();
  const prefix = `fa-test-${randomUUID()}:`;
  const { app, lines } = await appWith({ redisUrl: `redis://127.0.0.1:${port}`, redisKeyPrefix: prefix });
  const other = await appWith({ redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: prefix });
  assert.equal((await app.inject({ url: '/readyz' })).json().redis, 'unavailable');
  // Redis "comes back": a proxy to the real one starts listening on the port the app tries.
  const proxy = createServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  proxy.listen(port, '127.0.0.1');
  await once(proxy, 'listening');
  after(() => {
    proxy.close();
  });
  const deadline = Date.now() + 10_000;
  while ((await app.inject({ url: '/readyz' })).json().redis !== 'ok' && Date.now() < deadline)
    await sleep(100);
  assert.equal((await app.inject({ url: '/readyz' })).json().redis, 'ok');
  assert.ok(lines.some((line) => line.msg === 'redis available again; rate limits are shared again'));
  assert.equal(lines.filter((line) => line.msg === REDIS_DOWN).length, 1);
  await awayFromWindowEnd(60_000);
  const remaining = [];
  for (const instance of [app, other.app, app])
    remaining.push((await get(instance)).headers['ratelimit-remaining']);
  assert.deepEqual(remaining, ['2999', '2998', '2997']);
});
