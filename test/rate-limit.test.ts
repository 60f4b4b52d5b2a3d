/**
 * The rate limit (RATE_LIMIT_PER_MINUTE per RATE_LIMIT_WINDOW_MS, per API
 * key): 429 with Retry-After and RateLimit headers past it, served again in
 * the next window, per key, 401s not counted, off at 0, and shared by two
 * instances through Redis. The windows are aligned to a clock the tests set
 * (BuildOptions.rateLimitClock), at a window's start, and move to the next.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import type { App } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { appWith } from './app-with.js';
import { assertProblem, removeSqliteFiles, testClock } from './harness.js';
import { inject } from './inject.js';

const KEY = 'rate-limit-test-admin-key';
/** A window's start for both the 5 s and the 60 s windows. */
const WINDOW_START = '2026-05-04T10:00:00.000Z';

/** An app with the admin key KEY and the given limit, its windows on a clock at a window's start. */
async function limited(overrides: Parameters<typeof appWith>[0], database = openDatabase('sqlite::memory:')) {
  const clock = testClock(WINDOW_START);
  const { app } = await appWith(
    { adminApiKey: KEY, ...overrides },
    { database, rateLimitClock: () => clock.now().getTime() },
  );
  return { app, clock };
}

/** GET of the policy with an API key: the admin key unless another is given. */
const getWith = (app: App, secret: string) =>
  inject(app, { url: '/admin/facilities/1/policy', headers: { authorization: `Bearer ${secret}` } });
const get = (app: App) => getWith(app, KEY);

test('over the limit: 429 rate_limited with Retry-After and RateLimit headers, then served in the next window', async () => {
  const windowMs = 5000;
  const { app, clock } = await limited({ rateLimitPerMinute: 3, rateLimitWindowMs: windowMs });
  clock.advanceMs(1000);
  for (let i = 0; i < 3; i++) {
    const ok = await get(app);
    assert.equal(ok.status, 200);
    assert.deepEqual(
      [ok.headers['ratelimit-limit'], ok.headers['ratelimit-policy'], ok.headers['ratelimit-remaining']],
      ['3', '3;w=5', String(2 - i)],
    );
  }
  const refused = await get(app);
  assert.match(
    assertProblem(refused, 429, 'rate_limited').detail,
    /RATE_LIMIT_PER_MINUTE per RATE_LIMIT_WINDOW_MS/,
  );
  // One second into a five-second window: four seconds to its end.
  assert.deepEqual(
    [
      refused.headers['retry-after'],
      refused.headers['ratelimit-remaining'],
      refused.headers['ratelimit-reset'],
    ],
    ['4', '0', '4'],
  );
  clock.advanceMs(4000);
  const next = await get(app);
  assert.equal(next.status, 200, next.text);
  assert.equal(next.headers['ratelimit-remaining'], '2');
});

test('the limit is per API key: a key at its limit is 429 while another key is still served', async () => {
  const { app } = await limited({ rateLimitPerMinute: 3, rateLimitWindowMs: 60_000 });
  const make = async (name: string) =>
    (await createApiKey(app.db, { name, role: 'admin', facilityIds: 'all' })).secret;
  const [first, second] = [await make('first'), await make('second')];
  for (let i = 0; i < 3; i++) assert.equal((await getWith(app, first)).status, 200);
  assertProblem(await getWith(app, first), 429, 'rate_limited');
  const other = await getWith(app, second);
  assert.equal(other.status, 200, other.text);
  assert.equal(other.headers['ratelimit-remaining'], '2');
  const admin = await get(app);
  assert.equal(admin.status, 200, admin.text);
  assert.equal(admin.headers['ratelimit-remaining'], '2');
});

test('401 answers are not counted: not against the key that was sent nor against the client', async () => {
  const { app } = await limited({ rateLimitPerMinute: 3, rateLimitWindowMs: 60_000 });
  const revoked = await createApiKey(app.db, { name: 'revoked', role: 'admin', facilityIds: 'all' });
  await revokeApiKey(app.db, revoked.key.id, new Date().toISOString());
  for (const secret of [...Array(5).fill('garbage'), ...Array(5).fill(revoked.secret), `${KEY}x`]) {
    assertProblem(await getWith(app, secret), 401, 'unauthenticated');
  }
  const served = await get(app);
  assert.equal(served.status, 200, served.text);
  assert.equal(served.headers['ratelimit-remaining'], '2');
});

test('RATE_LIMIT_PER_MINUTE=0 turns the limit off: no RateLimit headers, and past any limit still served', async () => {
  const { app } = await limited({ rateLimitPerMinute: 0, rateLimitWindowMs: 60_000 });
  // The same requests past a limit of 3 are 429 (above); with 0, the limit is not there at all.
  for (let i = 0; i < 10; i++) {
    const response = await get(app);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers['ratelimit-limit'], undefined, 'no limit is counted');
    assert.equal(response.headers['ratelimit-remaining'], undefined);
  }
});

test('with REDIS_URL the limit holds across two instances', async () => {
  const redis = { redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: `fa-test-${randomUUID()}:` };
  const path = `/tmp/fa-rate-limit-${randomUUID()}.db`;
  after(() => removeSqliteFiles(path));
  const settings = { ...redis, rateLimitPerMinute: 4, rateLimitWindowMs: 60_000 };
  const a = await limited(settings, openDatabase(`sqlite:${path}`));
  const b = await limited(settings, openDatabase(`sqlite:${path}`));
  const responses = [];
  for (const app of [a.app, b.app, a.app, b.app, a.app, b.app]) responses.push(await get(app));
  assert.deepEqual(
    responses.map((response) => [response.status, response.headers['ratelimit-remaining']]),
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
