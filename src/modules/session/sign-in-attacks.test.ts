/**
 * Issue 39's attacks on sign-in, as an attacker would try them: a planted
 * session id, a disabled person's session on another instance, a flood of
 * wrong passwords, and telling known e-mails from unknown ones by time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { appWith } from '../../../test/app-with.js';
import { type Api, assertProblem, describeEachDialect } from '../../../test/harness.js';
import { injectJson } from '../../../test/inject.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';
import { verifyAgainstDummy } from '../../infrastructure/passwords/password-hash.js';
import { PASSWORD, SAME_ORIGIN, sessionCookieOf, signedUpPerson } from './people.fixtures.js';

const ADMIN_KEY = 'sign-in-attacks-admin-key';
const admin = bearer(ADMIN_KEY);
const FLOOD = 1000;

/** The CPU time (user and system, every thread of the process) that `work` took, in ms. */
async function cpuMsOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describeEachDialect(
  'sign-in under attack',
  (api: Api) => {
    test('session fixation: a session id planted before sign-in is neither kept nor honoured', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const planted = '__Host-fa_session=planted-by-an-attacker; fa_session=planted-by-an-attacker';
      const response = await api.post(
        '/admin/session',
        { email: person.email, password: PASSWORD },
        { ...SAME_ORIGIN, cookie: planted },
      );
      assert.equal(response.status, 200, response.text);
      const issued = sessionCookieOf(response);
      assert.ok(issued && !issued.includes('planted'), 'the sign-in issues an id of its own');
      assertProblem(await api.get('/admin/session', { cookie: planted }), 401, 'unauthenticated');
      const again = sessionCookieOf(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
      );
      assert.notEqual(again, issued, 'each sign-in gets a new id');
    });

    test("a disabled person's session is refused at once on a second instance too", async () => {
      const { config } = api.app;
      const second = await appWith(config, { database: openDatabase(config.databaseUrl) });
      const facility = api.newFacility();
      const person = await signedUpPerson(api, ADMIN_KEY, facility);
      const onSecond = (headers: Record<string, string>) =>
        injectJson(second.app, 'GET', `/admin/facilities/${facility}/plans`, undefined, headers);
      assert.equal((await onSecond(person.session)).status, 200, 'the session works on both instances');
      const disabled = await api.patch(`/admin/staff/${person.id}`, { state: 'disabled' }, admin);
      assert.equal(disabled.status, 200, disabled.text);
      assertProblem(await onSecond(person.session), 401, 'unauthenticated');
    });

    test(`${FLOOD} wrong passwords: throttled before they are hashed, and the service answers others meanwhile`, async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      // What one verification costs this process, to size the flood's CPU against.
      const oneVerification =
        (await cpuMsOf(() => Promise.all([1, 2, 3, 4].map(() => verifyAgainstDummy('x'))))) / 4;
      // A key this service issued: an address past its limit is still served with one (ADMIN_API_KEY is not).
      const { secret } = await createApiKey(api.app.db, {
        name: 'integration',
        role: 'viewer',
        facilityIds: 'all',
      });
      const statuses = new Map<number, number>();
      let othersAnswered = 0;
      const floodMs = await cpuMsOf(async () => {
        for (let i = 0; i < FLOOD; i += 50) {
          const wave = Array.from({ length: 50 }, (_, j) =>
            api.post(
              '/admin/session',
              { email: person.email, password: `wrong guess ${i + j}` },
              SAME_ORIGIN,
            ),
          );
          const [other] = await Promise.all([api.get('/admin/facilities', bearer(secret)), ...wave]).then(
            (all) => {
              for (const answer of all.slice(1))
                statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              return all;
            },
          );
          if (other.status === 200) othersAnswered += 1;
        }
      });
      assert.deepEqual([...statuses.keys()].sort(), [401, 429], `only 401 and then 429: ${[...statuses]}`);
      assert.ok((statuses.get(401) ?? 0) <= 50, `at most AUTH_FAILURE_LIMIT hashed: ${statuses.get(401)}`);
      assert.equal(othersAnswered, FLOOD / 50, "another caller's reads are answered throughout");
      // Had every guess been hashed, the flood would have cost FLOOD verifications of CPU.
      assert.ok(
        floodMs < (FLOOD / 2) * oneVerification,
        `the flood cost ${floodMs.toFixed(0)} ms of CPU, a verification ${oneVerification.toFixed(1)} ms`,
      );
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY },
  { sqliteOnDisk: true },
);

describeEachDialect(
  'sign-in timing',
  (api: Api) => {
    test('an unknown e-mail takes as long as a known one with a wrong password (no usable difference)', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const timeOf = async (email: string) => {
        const started = process.hrtime.bigint();
        const answer = await api.post('/admin/session', { email, password: 'not the password' }, SAME_ORIGIN);
        assert.equal(answer.status, 401, answer.text);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      // Interleaved, so that whatever else the machine does falls on both alike.
      for (let i = 0; i < 15; i++) {
        known.push(await timeOf(person.email));
        unknown.push(await timeOf(`nobody${i}@example.test`));
      }
      const ratio = median(unknown) / median(known);
      // Without the dummy verification an unknown e-mail answers in a small fraction of the time.
      assert.ok(
        ratio > 0.5 && ratio < 2,
        `unknown / known: ${ratio.toFixed(2)} (${median(unknown)} / ${median(known)} ms)`,
      );
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    authFailureLimit: 0,
    people: { ...loadConfig({}).people, signInFailuresPerAccount: 1000 },
  },
);
