import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { revokeApiKey } from '../src/modules/api-keys/api-key.repository.js';
import { createApiKey } from '../src/modules/api-keys/api-key.service.js';
import { assertProblem, removeSqliteFiles } from './harness.js';
import { freePort } from './service-process.js';

const KEY = 'rate-limit-test-admin-key';

async function appWith(
  overrides: Partial<ReturnType<typeof loadConfig>>,
  database = openDatabase('sqlite::memory:'),
) {
  const config = { ...loadConfig({}), adminApiKey: KEY, rateLimitWindowMs: 1000, ...overrides };
  return { app: await buildApp(config, { database, logger: false }), database };
}

/** GET of the policy with an API key: the admin key unless another is given. */
const getWith = (app: App, secret: string) =>
  app.inject({
    method: 'GET',
    url: '/admin/facilities/1/policy',
    headers: { authorization: `Bearer ${secret}` },
  });
const get = (app: App) => getWith(app, KEY);

/** Waits for a fresh window when this one ends within 5 s: requests that straddled two would be counted apart. */
async function awayFromWindowEnd(windowMs: number): Promise<void> {
  const leftInWindow = windowMs - (Date.now() % windowMs);
  if (leftInWindow < 5000) await sleep(leftInWindow + 50);
}

test('over the limit: 429 rate_limited with Retry-After and RateLimit headers, then recovered', async () => {
  const { app, database } = await appWith({ rateLimitPerMinute: 3 });
  after(async () => {
    await app.close();
    await database.close();
  });
  for (let i = 0; i < 3; i++) {
    const ok = await get(app);
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['ratelimit-limit'], '3');
    assert.equal(ok.headers['ratelimit-policy'], '3;w=1');
  }
  const limited = await get(app);
  assertProblem(
    { status: limited.statusCode, headers: limited.headers, body: limited.json(), text: limited.body },
    429,
    'rate_limited',
  );
  assert.ok(Number(limited.headers['retry-after']) >= 0);
  assert.equal(limited.headers['ratelimit-remaining'], '0');
  assert.ok(limited.headers['ratelimit-reset'] !== undefined);
  await sleep(1100);
  assert.equal((await get(app)).statusCode, 200);
});

test('the limit is per API key: a key at its limit is 429 while another key is still served', async () => {
  const { app, database } = await appWith({ rateLimitPerMinute: 3, rateLimitWindowMs: 60_000 });
  after(async () => {
    await app.close();
    await database.close();
  });
  const make = async (name: string) =>
    (await createApiKey(app.db, { name, role: 'admin', facilityIds: 'all' })).secret;
  const [first, second] = [await make('first'), await make('second')];
  await awayFromWindowEnd(60_000);
  for (let i = 0; i < 3; i++) assert.equal((await getWith(app, first)).statusCode, 200);
  const limited = await getWith(app, first);
  assert.equal(limited.statusCode, 429, limited.body);
  assert.equal(limited.json().code, 'rate_limited');
  const other = await getWith(app, second);
  assert.equal(other.statusCode, 200, other.body);
  assert.equal(other.headers['ratelimit-remaining'], '2');
  const admin = await get(app);
  assert.equal(admin.statusCode, 200, admin.body);
  assert.equal(admin.headers['ratelimit-remaining'], '2');
});

test('401 answers are not counted: not against the key that was sent nor against the client', async () => {
  const { app, database } = await appWith({ rateLimitPerMinute: 3, rateLimitWindowMs: 60_000 });
  after(async () => {
    await app.close();
    await database.close();
  });
  const revoked = await createApiKey(app.db, { name: 'revoked', role: 'admin', facilityIds: 'all' });
  await revokeApiKey(app.db, revoked.key.id, new Date().toISOString());
  await awayFromWindowEnd(60_000);
  for (const secret of [...Array(5).fill('garbage'), ...Array(5).fill(revoked.secret), `${KEY}x`]) {
    const refused = await getWith(app, secret);
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal(refused.json().code, 'unauthenticated');
  }
  const served = await get(app);
  assert.equal(served.statusCode, 200, served.body);
  assert.equal(served.headers['ratelimit-remaining'], '2');
});

test('RATE_LIMIT_PER_MINUTE=0 turns the limit off', async () => {
  const { app, database } = await appWith({ rateLimitPerMinute: 0 });
  after(async () => {
    await app.close();
    await database.close();
  });
  for (let i = 0; i < 20; i++) assert.equal((await get(app)).statusCode, 200);
});

test('with REDIS_URL the limit holds across two instances', async () => {
  const redis = { redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: `fa-test-${randomUUID()}:` };
  const path = `/tmp/fa-rate-limit-${randomUUID()}.db`;
  const windowMs = 60_000;
  const a = await appWith(
    { ...redis, rateLimitPerMinute: 4, rateLimitWindowMs: windowMs },
    openDatabase(`sqlite:${path}`),
  );
  const b = await appWith(
    { ...redis, rateLimitPerMinute: 4, rateLimitWindowMs: windowMs },
    openDatabase(`sqlite:${path}`),
  );
  after(async () => {
    for (const { app, database } of [a, b]) {
      await app.close();
      await database.close();
    }
    removeSqliteFiles(path);
  });
  await awayFromWindowEnd(windowMs);
  const responses = [];
  for (const app of [a.app, b.app, a.app, b.app, a.app, b.app]) responses.push(await get(app));
  assert.deepEqual(
    responses.map((response) => [response.statusCode, response.headers['ratelimit-remaining']]),
    [
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ],
  );
});

test('with Redis unreachable the limit holds per process, and no request waits for Redis', async () => {
  const { app, database } = await appWith({
    redisUrl: 'redis://127.0.0.1:1',
    rateLimitPerMinute: 2,
    rateLimitWindowMs: 60_000,
  });
  after(async () => {
    await app.close();
    await database.close();
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

/** An app whose log lines are collected, with the rate limit's Redis at `redisUrl`. */
async function loggedAppWith(redisUrl: string, redisKeyPrefix = `fa-test-${randomUUID()}:`) {
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
    redisUrl,
    redisKeyPrefix,
  };
  const app = await buildApp(config, { database, logger: { level: 'info', stream } });
  after(async () => {
    await app.close();
    await database.close();
  });
  return { app, lines };
}

const REDIS_DOWN = 'redis unavailable; rate limits are counted per process until it is back';

test('Redis unreachable: one warning, not one per reconnection attempt or per request', async () => {
  const { app, lines } = await loggedAppWith('redis://127.0.0.1:1');
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
  const down = await loggedAppWith('redis://127.0.0.1:1');
  const up = await loggedAppWith('redis://127.0.0.1:6379');
  const { app: without, database } = await appWith({ redisUrl: undefined });
  after(async () => {
    await without.close();
    await database.close();
  });
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
  const { app, lines } = await loggedAppWith(`redis://127.0.0.1:${port}`, prefix);
  const other = await loggedAppWith('redis://127.0.0.1:6379', prefix);
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
