import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { assertProblem, removeSqliteFiles } from './harness.js';

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
  // Windows of 5 s, entered at their start: four requests on a busy machine must fall in one.
  const windowMs = 5000;
  const { app, database } = await appWith({ rateLimitPerMinute: 3, rateLimitWindowMs: windowMs });
  after(async () => {
    await app.close();
    await database.close();
  });
  await sleep(windowMs - (Date.now() % windowMs) + 10);
  for (let i = 0; i < 3; i++) {
    const ok = await get(app);
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['ratelimit-limit'], '3');
    assert.equal(ok.headers['ratelimit-policy'], '3;w=5');
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
  await sleep(windowMs - (Date.now() % windowMs) + 10);
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
