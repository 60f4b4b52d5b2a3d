/**
 * Invariants under concurrency: two instances of the service share one
 * database, as two worker processes would, and many requests run in
 * parallel, alternating between the instances.
 *
 * PostgreSQL: one fresh database, two apps in this process, each with its own
 * connection pool (pg is asynchronous, so their transactions truly overlap).
 *
 * SQLite: one temporary file in WAL mode, used by an app in this process and
 * by the real service in a child process, and deleted afterwards. Two
 * connections in ONE process would not model two workers: better-sqlite3 is
 * synchronous and a transaction runs to its end within one turn of the event
 * loop, so the two connections would simply take turns (and a connection that
 * did wait for the other's lock would block the very thread that has to
 * release it). Two processes really do contend for the file's write lock.
 *
 * Every test repeats for ROUNDS rounds (CONCURRENCY_ROUNDS, default 3) on a new
 * facility each, so that a race that loses only sometimes still shows.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, type DialectName, openDatabase } from '../src/db/database.js';
import {
  assertProblem,
  createTestDatabase,
  DIALECTS,
  removeSqliteFiles,
  type TestResponse,
} from './harness.js';
import { injectJson } from './inject.js';
import { type ServiceProcess, startService } from './service-process.js';

const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? 3);
const ALL_STATUSES = 'pending,active,frozen,suspended,cancelled,removed';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One instance of the service: an app in this process, or a child process over HTTP. */
type Instance = (
  method: Method,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<TestResponse>;

/** A database that two instances share; SQLite uses a file, not memory. */
async function createSharedDatabase(
  dialect: DialectName,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'postgres') return createTestDatabase(dialect);
  const file = join(tmpdir(), `facility-admin-concurrency-${process.pid}-${Date.now()}.db`);
  return {
    url: `sqlite:${file}`,
    drop: async () => {
      removeSqliteFiles(file);
    },
  };
}

function injecting(app: App): Instance {
  return (method, url, body, headers = {}) => injectJson(app, method, url, body, headers);
}

function overHttp(service: ServiceProcess): Instance {
  return async (method, url, body, headers = {}) => {
    const withBody = body !== undefined;
    const response = await fetch(`${service.baseUrl}${url}`, {
      method,
      headers: withBody ? { 'content-type': 'application/json', ...headers } : headers,
      ...(withBody ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: parsed,
      text,
    };
  };
}

/** Counts answers by `status code` (e.g. `201`, `409 plan_full`), for readable assertions. */
function tally(responses: TestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const key = r.status < 400 ? String(r.status) : `${r.status} ${r.body?.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

let facilityCounter = 0;

for (const dialect of DIALECTS) {
  describe(`concurrency: two app instances on one database [${dialect}]`, () => {
    const instances: Instance[] = [];
    const apps: App[] = [];
    const databases: Database[] = [];
    let child: ServiceProcess | undefined;
    let drop: () => Promise<void> = async () => {};

    before(async () => {
      const shared = await createSharedDatabase(dialect);
      drop = shared.drop;
      const config = {
        ...loadConfig({}),
        databaseUrl: shared.url,
        authMode: 'none' as const,
        rateLimitPerMinute: 0,
      };
      // One after the other: both run the migrations, the second finds nothing to do.
      for (let i = 0; i < (dialect === 'sqlite' ? 1 : 2); i++) {
        const database = openDatabase(shared.url);
        databases.push(database);
        apps.push(await buildApp(config, { database, logger: false }));
        instances.push(injecting(apps[i]));
      }
      if (dialect === 'sqlite') {
        child = await startService(shared.url);
        instances.push(overHttp(child));
      }
    });

    after(async () => {
      await child?.kill('SIGTERM');
      for (const app of apps) await app.close();
      for (const database of databases) await database.close();
      await drop();
    });

    /** Request number i goes to instance i % 2. */
    const on = (i: number) => instances[i % 2];
    const newFacility = () => 10_000 + ++facilityCounter;
    const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;
    const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;

    async function createPlan(facility: number, body: object) {
      const response = await on(0)('POST', plansUrl(facility), body);
      assert.equal(response.status, 201, response.text);
      return response.body;
    }

    async function inParallel(count: number, request: (i: number) => Promise<TestResponse>) {
      return Promise.all(Array.from({ length: count }, (_, i) => request(i)));
    }

    test('40 concurrent sign-ups on a plan with max_members 7: exactly 7 succeed', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const plan = await createPlan(facility, { name: 'Small group', max_members: 7 });
        const responses = await inParallel(40, (i) =>
          on(i)('POST', membersUrl(facility), { first_name: `Member ${i}`, plan_id: plan.id }),
        );
        assert.deepEqual(tally(responses), { 201: 7, '409 plan_full': 33 }, `round ${round}`);
        for (const r of responses.filter((r) => r.status === 409)) assertProblem(r, 409, 'plan_full');
        const list = await on(1)('GET', `${membersUrl(facility)}?plan_id=${plan.id}`);
        assert.equal(list.status, 200, list.text);
        assert.equal(list.body.members.length, 7);
      }
    });

    test('20 concurrent plan creates with one name in different cases: exactly one succeeds', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const names = ['Adult Monthly', 'adult monthly', 'ADULT MONTHLY', 'Adult MONTHLY', 'aDuLt mOnThLy'];
        const responses = await inParallel(20, (i) =>
          on(i)('POST', plansUrl(facility), { name: names[i % names.length] }),
        );
        assert.deepEqual(tally(responses), { 201: 1, '409 plan_name_conflict': 19 }, `round ${round}`);
        for (const r of responses.filter((r) => r.status === 409))
          assertProblem(r, 409, 'plan_name_conflict');
        const list = await on(1)('GET', `${plansUrl(facility)}?include_inactive=true`);
        assert.equal(list.body.plans.length, 1);
      }
    });

    test('20 concurrent member creates with one email in different cases: exactly one succeeds', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const emails = ['ann@example.com', 'ANN@example.com', 'Ann@Example.COM', 'ann@EXAMPLE.com'];
        const responses = await inParallel(20, (i) =>
          on(i)('POST', membersUrl(facility), { first_name: 'Ann', email: emails[i % emails.length] }),
        );
        assert.deepEqual(tally(responses), { 201: 1, '409 member_email_conflict': 19 }, `round ${round}`);
        for (const r of responses.filter((r) => r.status === 409)) {
          assertProblem(r, 409, 'member_email_conflict');
        }
        const list = await on(1)('GET', `${membersUrl(facility)}?status=${ALL_STATUSES}`);
        assert.equal(list.body.members.length, 1);
      }
    });

    test('20 concurrent first reads of a policy create exactly one', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const responses = await inParallel(20, (i) => on(i)('GET', `/admin/facilities/${facility}/policy`));
        assert.deepEqual(tally(responses), { 200: 20 }, `round ${round}`);
        assert.equal(new Set(responses.map((r) => r.body.created_at)).size, 1);
        assert.equal(new Set(responses.map((r) => r.headers.etag)).size, 1);
      }
    });

    test('10 concurrent PATCHes with the same If-Match: exactly one succeeds', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const plan = await createPlan(facility, { name: 'Contested', price_amount: 1000 });
        const read = await on(1)('GET', `${plansUrl(facility)}/${plan.id}`);
        const etag = String(read.headers.etag);
        const planResponses = await inParallel(10, (i) =>
          on(i)(
            'PATCH',
            `${plansUrl(facility)}/${plan.id}`,
            { price_amount: 2000 + i },
            { 'if-match': etag },
          ),
        );
        assert.deepEqual(
          tally(planResponses),
          { 200: 1, '412 precondition_failed': 9 },
          `plan, round ${round}`,
        );
        const winner = planResponses.find((r) => r.status === 200);
        const stored = await on(0)('GET', `${plansUrl(facility)}/${plan.id}`);
        assert.equal(stored.body.price_amount, winner?.body.price_amount);

        const member = await on(0)('POST', membersUrl(facility), { first_name: 'Bo' });
        const memberEtag = String(member.headers.etag);
        const memberResponses = await inParallel(10, (i) =>
          on(i)(
            'PATCH',
            `${membersUrl(facility)}/${member.body.id}`,
            { notes: `note ${i}` },
            { 'if-match': memberEtag },
          ),
        );
        assert.deepEqual(
          tally(memberResponses),
          { 200: 1, '412 precondition_failed': 9 },
          `member, round ${round}`,
        );

        const policyUrl = `/admin/facilities/${facility}/policy`;
        const policy = await on(1)('GET', policyUrl);
        const policyEtag = String(policy.headers.etag);
        const policyResponses = await inParallel(10, (i) =>
          on(i)('PATCH', policyUrl, { booking_window_days: 20 + i }, { 'if-match': policyEtag }),
        );
        assert.deepEqual(
          tally(policyResponses),
          { 200: 1, '412 precondition_failed': 9 },
          `policy, round ${round}`,
        );
      }
    });

    test('concurrent restores of removed members never take a plan past max_members', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const plan = await createPlan(facility, { name: 'Restorable', max_members: 10 });
        const ids: number[] = [];
        for (let i = 0; i < 10; i++) {
          const created = await on(i)('POST', membersUrl(facility), {
            first_name: `Former ${i}`,
            plan_id: plan.id,
          });
          assert.equal(created.status, 201, created.text);
          ids.push(created.body.id);
        }
        for (const id of ids) {
          assert.equal((await on(id)('DELETE', `${membersUrl(facility)}/${id}`)).status, 204);
        }
        // 3 seats, 1 taken by a current member: 2 free for 10 concurrent restores.
        const shrink = await on(0)('PATCH', `${plansUrl(facility)}/${plan.id}`, { max_members: 3 });
        assert.equal(shrink.status, 200, shrink.text);
        const current = await on(1)('POST', membersUrl(facility), {
          first_name: 'Current',
          plan_id: plan.id,
        });
        assert.equal(current.status, 201, current.text);

        const responses = await Promise.all(
          ids.map((id, i) =>
            on(i)('PATCH', `${membersUrl(facility)}/${id}`, { status: i % 2 ? 'active' : 'pending' }),
          ),
        );
        assert.deepEqual(tally(responses), { 200: 2, '409 plan_full': 8 }, `round ${round}`);
        const list = await on(0)('GET', `${membersUrl(facility)}?plan_id=${plan.id}`);
        assert.equal(list.body.members.length, 3);
      }
    });

    /** Counts decisions by `decision reasons` (e.g. `allow`, `deny facility_full`). */
    function tallyDecisions(responses: TestResponse[]): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const r of responses) {
        assert.equal(r.status, 200, r.text);
        const codes = r.body.reasons.map((reason: { code: string }) => reason.code);
        const key = [r.body.decision, ...codes].join(' ');
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    }
    const decisionsUrl = (facility: number) => `/admin/facilities/${facility}/access-decisions`;

    test('50 concurrent access decisions for 10 places: exactly 10 are allowed', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const policy = await on(0)('PATCH', `/admin/facilities/${facility}/policy`, { max_occupancy: 10 });
        assert.equal(policy.status, 200, policy.text);
        const plan = await createPlan(facility, { name: 'Door' });
        const members = await inParallel(50, (i) =>
          on(i)('POST', membersUrl(facility), { first_name: `Visitor ${i}`, plan_id: plan.id }),
        );
        const responses = await inParallel(50, (i) =>
          on(i)('POST', decisionsUrl(facility), { member_id: members[i].body.id }),
        );
        assert.deepEqual(
          tallyDecisions(responses),
          { allow: 10, 'deny facility_full': 40 },
          `round ${round}`,
        );
        const occupancy = await on(1)('GET', `/admin/facilities/${facility}/occupancy`);
        assert.equal(occupancy.body.total, 10);
      }
    });

    test('20 concurrent access decisions for one member with 3 visits a day: exactly 3 are visits', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const facility = newFacility();
        const plan = await createPlan(facility, { name: 'Three a day' });
        const limit = await on(0)('PUT', `${plansUrl(facility)}/${plan.id}/entitlements/visits_per_day`, {
          value: 3,
        });
        assert.equal(limit.status, 201, limit.text);
        const member = await on(1)('POST', membersUrl(facility), { first_name: 'Regular', plan_id: plan.id });
        const responses = await inParallel(20, (i) =>
          on(i)('POST', decisionsUrl(facility), { member_id: member.body.id }),
        );
        assert.deepEqual(
          tallyDecisions(responses),
          { allow: 3, 'deny visit_limit_reached': 17 },
          `round ${round}`,
        );
      }
    });
  });
}
