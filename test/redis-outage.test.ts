/**
 * The rate limit while its Redis is down (docs/operations.md, A Redis
 * outage): counted per process, said once in the log, shown by /readyz and
 * /metrics, and shared again when Redis is back. A Redis that is down is a
 * port whose every connection is reset (a test can count the attempts), and
 * one that comes back a proxy to the real one that starts listening. The rate
 * limit's windows are on a clock at a window's start.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { after, test } from 'node:test';
import type { App } from '../src/app.js';
import type { Config } from '../src/config.js';
import { appWith } from './app-with.js';
import { eventually } from './eventually.js';
import { testClock } from './harness.js';
import { inject } from './inject.js';
import { freePort } from './service-process.js';

const KEY = 'redis-outage-test-admin-key';
const REDIS_DOWN = 'redis unavailable; rate limits are counted per process until it is back';

const get = (app: App) =>
  inject(app, { url: '/admin/facilities/1/policy', headers: { authorization: `Bearer ${KEY}` } });
const ready = async (app: App) => (await inject(app, { url: '/readyz' })).body.redis;

/** A Redis that is down: every connection to its port is reset. Counts the attempts. */
async function downRedis() {
  const state = { attempts: 0 };
  const server = createServer((socket) => {
    state.attempts += 1;
    socket.resetAndDestroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { url: `redis://127.0.0.1:${port}`, state };
}

/** An app with the admin key KEY and a Redis key prefix of its own, its log collected. */
function appOf(overrides: Partial<Config>) {
  const clock = testClock('2026-05-04T10:00:00.000Z');
  return appWith(
    { adminApiKey: KEY, redisKeyPrefix: `fa-test-${randomUUID()}:`, ...overrides },
    { logLevel: 'info', rateLimitClock: () => clock.now().getTime() },
  );
}

test('with Redis unreachable the limit holds per process', async () => {
  const redis = await downRedis();
  const { app } = await appOf({ redisUrl: redis.url, rateLimitPerMinute: 2, rateLimitWindowMs: 60_000 });
  assert.ok(redis.state.attempts > 0, 'the app tried its Redis');
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const response = await get(app);
    statuses.push([response.status, response.headers['ratelimit-remaining']]);
  }
  assert.deepEqual(statuses, [
    [200, '1'],
    [200, '0'],
    [429, '0'],
  ]);
});

test('Redis unreachable: one warning, not one per reconnection attempt or per request', async () => {
  const redis = await downRedis();
  const { app, lines } = await appOf({ redisUrl: redis.url });
  // ioredis tries again after 50 ms, 100 ms, …: each failed attempt is an error the app hears of.
  const seen = redis.state.attempts;
  for (let i = 0; i < 6; i++) {
    assert.equal((await get(app)).status, 200);
    await eventually(`reconnection attempt ${seen + i + 1}`, () => redis.state.attempts > seen + i);
  }
  const warnings = lines.filter((line) => line.level >= 40);
  assert.deepEqual(
    warnings.map((line) => [line.level, line.msg]),
    [[40, REDIS_DOWN]],
  );
});

test('/readyz and /metrics show whether Redis answers; the service stays ready without it', async () => {
  const redis = await downRedis();
  const down = await appOf({ redisUrl: redis.url });
  const up = await appOf({ redisUrl: 'redis://127.0.0.1:6379' });
  const { app: without } = await appOf({ redisUrl: undefined });
  const readiness = async (app: App) => {
    const response = await inject(app, { url: '/readyz' });
    const metrics = (await inject(app, { url: '/metrics' })).text;
    return [response.status, response.body.redis, /^redis_up (\d)$/m.exec(metrics)?.[1]];
  };
  assert.deepEqual(await readiness(down.app), [200, 'unavailable', '0']);
  assert.deepEqual(await readiness(up.app), [200, 'ok', '1']);
  assert.deepEqual(await readiness(without), [200, undefined, undefined]);
});

test('when Redis comes back, counting is shared again and the log says so', async () => {
  const port = await freePort();
  const prefix = `fa-test-${randomUUID()}:`;
  const { app, lines } = await appOf({ redisUrl: `redis://127.0.0.1:${port}`, redisKeyPrefix: prefix });
  const other = await appOf({ redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: prefix });
  assert.equal(await ready(app), 'unavailable');
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
  await eventually('Redis ready again', async () => (await ready(app)) === 'ok');
  assert.ok(lines.some((line) => line.msg === 'redis available again; rate limits are shared again'));
  assert.equal(lines.filter((line) => line.msg === REDIS_DOWN).length, 1);
  const remaining = [];
  for (const instance of [app, other.app, app])
    remaining.push((await get(instance)).headers['ratelimit-remaining']);
  assert.deepEqual(remaining, ['2999', '2998', '2997']);
});
