/**
 * Issue 25, "exact answers": 401 and 403 answers count toward a limit per
 * client address (AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_MS), so keys
 * cannot be guessed at speed. Issue 37: past the limit, valid keys of this
 * service (the devices behind one NAT) are still served; every other request
 * from the address is 429. Requests come from chosen addresses through
 * inject's remoteAddress.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, mock, test } from 'node:test';
import type { App } from '../src/app.js';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { appWith } from './app-with.js';
import { type Api, assertProblem, describeEachDialect, type TestResponse } from './harness.js';
import { inject } from './inject.js';

const ADMIN_API_KEY = 'test-admin-key-auth-failures';
const LIMIT = 5;
const WINDOW_MS = 3_600_000;
/**
 * The limit's windows are aligned to the clock: the file's clock (Date) is
 * stopped in the middle of one, so that no test's failures straddle two.
 */
const MID_WINDOW = new Date('2026-03-09T12:30:00.000Z');
function stopTheClock(apis: ('Date' | 'setTimeout' | 'setInterval')[] = ['Date']): void {
  mock.timers.enable({ apis, now: MID_WINDOW });
  // The modules that imported a timer (`import { setTimeout } from 'node:timers/promises'`) get the mocked one.
  syncBuiltinESMExports();
}
function restartTheClock(): void {
  mock.timers.reset();
  syncBuiltinESMExports();
}
before(() => stopTheClock());
after(() => restartTheClock());

let addressCounter = 0;
/** An IPv4 address no other test has used, so each test starts with no failure counted. */
const newAddress = () => `198.51.100.${++addressCounter}`;

function send(
  app: App,
  from: string,
  secret: string,
  method: 'GET' | 'POST' = 'GET',
  url = '/admin/facilities/1/policy',
): Promise<TestResponse> {
  return inject(app, {
    method,
    url,
    remoteAddress: from,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { payload: JSON.stringify({ name: 'Gold' }) } : {}),
  });
}

function assertThrottled(response: TestResponse) {
  const problem = assertProblem(response, 429, 'rate_limited');
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_MS / 1000, `Retry-After ${retryAfter}`);
  assert.match(
    problem.detail,
    /failed authentications from this address.*\(AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_MS\)/,
  );
}

describeEachDialect(
  'failed authentications per client address',
  (api: Api) => {
    let viewer = '';
    let frontDesk = '';
    let doorController = '';
    let revoked = '';
    before(async () => {
      const key = (name: string, role: 'admin' | 'viewer') =>
        createApiKey(api.app.db, { name, role, facilityIds: [1] });
      viewer = (await key('viewer', 'viewer')).secret;
      frontDesk = (await key('front desk', 'admin')).secret;
      doorController = (await key('door controller', 'viewer')).secret;
      const gone = await key('revoked', 'admin');
      await revokeApiKey(api.app.db, gone.key.id, new Date().toISOString());
      revoked = gone.secret;
    });

    test(`after ${LIMIT} failed authentications, every request from the address without a valid key of this service is 429 with Retry-After`, async () => {
      const from = newAddress();
      for (let i = 0; i < LIMIT; i++)
        assertProblem(await send(api.app, from, `wrong-${i}`), 401, 'unauthenticated');
      assertThrottled(await send(api.app, from, 'wrong-again'));
      // A key of the service's form that is no key, or no longer one: 429, not 401.
      assertThrottled(await send(api.app, from, `fa_${'A'.repeat(43)}`));
      assertThrottled(await send(api.app, from, revoked));
      // ADMIN_API_KEY is any text an operator chose: past the limit even the right one is refused.
      assertThrottled(await send(api.app, from, ADMIN_API_KEY));
      assertThrottled(await send(api.app, from, ADMIN_API_KEY, 'GET', '/admin/plan-templates'));
    });

    test('behind one NAT, valid keys keep working while a third device is throttled', async () => {
      const nat = newAddress();
      assert.equal((await send(api.app, nat, frontDesk)).status, 200);
      for (let i = 0; i < LIMIT; i++) assert.equal((await send(api.app, nat, `fa_guess${i}`)).status, 401);
      assertThrottled(await send(api.app, nat, `fa_guess${LIMIT}`));
      assert.equal((await send(api.app, nat, frontDesk)).status, 200);
      assert.equal((await send(api.app, nat, frontDesk, 'POST', '/admin/facilities/1/plans')).status, 201);
      // A key first seen after the limit is served too, when it verifies.
      assert.equal((await send(api.app, nat, doorController, 'GET', '/admin/plan-templates')).status, 200);
      assertThrottled(await send(api.app, nat, 'no-key-at-all'));
    });

    test('403 answers count too: past the limit, the viewer key that kept writing still reads, a wrong key is 429', async () => {
      const from = newAddress();
      for (let i = 0; i < LIMIT; i++) {
        assertProblem(
          await send(api.app, from, viewer, 'POST', '/admin/facilities/1/plans'),
          403,
          'forbidden',
        );
      }
      assertThrottled(await send(api.app, from, `fa_${'B'.repeat(43)}`));
      assert.equal((await send(api.app, from, viewer)).status, 200);
      assertProblem(await send(api.app, from, viewer, 'POST', '/admin/facilities/1/plans'), 403, 'forbidden');
    });

    test('answers that are not 401 or 403 do not count: 200, 400 and 404', async () => {
      const from = newAddress();
      for (let i = 0; i < LIMIT * 2; i++) {
        assert.equal((await send(api.app, from, ADMIN_API_KEY)).status, 200);
        assert.equal(
          (await send(api.app, from, ADMIN_API_KEY, 'GET', '/admin/facilities/abc/plans')).status,
          400,
        );
        assert.equal((await send(api.app, from, ADMIN_API_KEY, 'GET', '/admin/nowhere')).status, 404);
      }
      for (let i = 0; i < LIMIT - 1; i++)
        assertProblem(await send(api.app, from, 'wrong'), 401, 'unauthenticated');
      assert.equal((await send(api.app, from, ADMIN_API_KEY)).status, 200);
    });

    test('other addresses are served; an IPv6 client is counted by its /64', async () => {
      for (let i = 0; i < LIMIT; i++)
        assert.equal((await send(api.app, `2001:db8:a:b::${i + 1}`, 'wrong')).status, 401);
      assertThrottled(await send(api.app, '2001:db8:a:b:ffff::9', ADMIN_API_KEY));
      assert.equal((await send(api.app, '2001:db8:a:c::1', ADMIN_API_KEY)).status, 200);
      assert.equal((await send(api.app, newAddress(), ADMIN_API_KEY)).status, 200);
    });

    test('a throttled address still gets health checks and the OpenAPI document', async () => {
      const from = newAddress();
      for (let i = 0; i < LIMIT; i++) await send(api.app, from, 'wrong');
      assertThrottled(await send(api.app, from, ADMIN_API_KEY));
      for (const url of ['/healthz', '/openapi.json']) {
        assert.equal(
          (await api.app.inject({ method: 'GET', url, remoteAddress: from })).statusCode,
          200,
          url,
        );
      }
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_API_KEY,
    authFailureLimit: LIMIT,
    authFailureWindowMs: WINDOW_MS,
  },
);

/** An app of its own on SQLite, with ADMIN_API_KEY and the file's window. */
async function appOf(overrides: Parameters<typeof appWith>[0], logLevel?: 'warn') {
  const own = await appWith(
    { adminApiKey: ADMIN_API_KEY, authFailureWindowMs: WINDOW_MS, ...overrides },
    logLevel === undefined ? {} : { logLevel },
  );
  return own;
}

test('AUTH_FAILURE_LIMIT=0 turns the limit off', async () => {
  const { app } = await appOf({ authFailureLimit: 0 });
  for (let i = 0; i < 60; i++) assert.equal((await send(app, '203.0.113.1', 'wrong')).status, 401);
  assert.equal((await send(app, '203.0.113.1', ADMIN_API_KEY)).status, 200);
});

test('with REDIS_URL, failures counted on one instance throttle the address on another', async () => {
  const redis = { redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: `fa-test-${randomUUID()}:` };
  const { app: a } = await appOf({ ...redis, authFailureLimit: LIMIT });
  const { app: b } = await appOf({ ...redis, authFailureLimit: LIMIT });
  const from = '203.0.113.7';
  for (let i = 0; i < LIMIT - 1; i++) assert.equal((await send(a, from, 'wrong')).status, 401);
  assert.equal((await send(b, from, ADMIN_API_KEY)).status, 200, 'b has counted no failure yet');
  assert.equal((await send(b, from, 'wrong')).status, 401);
  assertThrottled(await send(b, from, ADMIN_API_KEY));
  // a learns the shared count with its next failure.
  assert.equal((await send(a, from, 'wrong')).status, 401);
  assertThrottled(await send(a, from, ADMIN_API_KEY));
});

test('with Redis unreachable, failures are counted in the process, without waiting, and warned about once', {
  timeout: 60_000,
}, async () => {
  const { app, lines } = await appOf({ redisUrl: 'redis://127.0.0.1:1', authFailureLimit: LIMIT }, 'warn');
  const from = '203.0.113.9';
  // No timer fires while the failures are answered: one that waited for Redis (a command or
  // connection timeout, a retry) would never be answered, and the test would time out.
  restartTheClock();
  stopTheClock(['Date', 'setTimeout', 'setInterval']);
  try {
    for (let i = 0; i < LIMIT; i++) assert.equal((await send(app, from, 'wrong')).status, 401);
    assertThrottled(await send(app, from, ADMIN_API_KEY));
  } finally {
    restartTheClock();
    stopTheClock();
  }
  const warnings = lines.filter((line) =>
    line.msg.startsWith('redis unavailable; rate limits are counted per process'),
  );
  assert.equal(warnings.length, 1, JSON.stringify(lines));
});
