import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { loadConfig } from '../../config.js';
import {
  PASSWORD,
  SAME_ORIGIN,
  sessionCookieOf,
  signedIn,
  signedUpPerson,
  signInAgain,
  tokenOf,
} from './people.fixtures.js';

const ADMIN_KEY = 'account-test-admin-key';
const NEW_PASSWORD = 'a fresher passphrase of mine';
const change = (current: string, next: string) => ({ current_password: current, new_password: next });

describeEachDialect(
  'session: my password and my sessions',
  (api) => {
    test('a person changes their password: the new one signs in, the old one no longer', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const changed = await api.put(
        '/admin/session/password',
        change(PASSWORD, NEW_PASSWORD),
        person.session,
      );
      assert.equal(changed.status, 204, changed.text);
      const again = { email: person.email, password: NEW_PASSWORD };
      assert.equal((await api.post('/admin/session', again, SAME_ORIGIN)).status, 200);
      assertProblem(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
        401,
        'unauthenticated',
      );
    });

    test('a password change ends every session of the person and renews this one with a new secret', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const other = await signInAgain(api, person.email);
      const changed = await api.put(
        '/admin/session/password',
        change(PASSWORD, NEW_PASSWORD),
        person.session,
      );
      const renewed = sessionCookieOf(changed);
      assert.ok(renewed && renewed !== person.session.cookie, 'a new session cookie');
      assertProblem(await api.get('/admin/session', other), 401, 'unauthenticated');
      assertProblem(await api.get('/admin/session', person.session), 401, 'unauthenticated');
      const me = await api.get('/admin/session', signedIn(renewed));
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.actor.id, person.id);
      const sessions = (await api.get('/admin/session/sessions', signedIn(renewed))).body.sessions;
      assert.deepEqual(
        sessions.map((session: { current: boolean }) => session.current),
        [true],
      );
    });

    test('a password change ends a reset link asked for before it', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const reset = await api.post(`/admin/staff/${person.id}/password-reset`, undefined, bearer(ADMIN_KEY));
      assert.equal(reset.status, 200, reset.text);
      await api.put('/admin/session/password', change(PASSWORD, NEW_PASSWORD), person.session);
      assertProblem(
        await api.post(
          '/admin/session/link',
          { token: tokenOf(reset.body.invitation.url), password: 'an attacker passphrase' },
          SAME_ORIGIN,
        ),
        410,
        'link_not_usable',
      );
    });

    test('a wrong current password is refused, changes nothing, and counts against the account', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      for (let i = 0; i < 3; i++) {
        assertProblem(
          await api.put('/admin/session/password', change('not my password', NEW_PASSWORD), person.session),
          403,
          'current_password_wrong',
        );
      }
      // Past SIGN_IN_FAILURES_PER_ACCOUNT (3 here): the right password waits too, to change and to sign in.
      const limited = await api.put(
        '/admin/session/password',
        change(PASSWORD, NEW_PASSWORD),
        person.session,
      );
      assertProblem(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assertProblem(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
        429,
        'rate_limited',
      );
      assert.equal((await api.get('/admin/session', person.session)).status, 200, 'still signed in');
    });

    test('the new password follows the rules: 400 naming /new_password, nothing changed', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      for (const next of [
        'short one',
        `my ${person.email} pass`,
        'Facility-Admin 2026 pass',
        'QwertyAsdfgh',
      ]) {
        const refused = assertProblem(
          await api.put('/admin/session/password', change(PASSWORD, next), person.session),
          400,
          'validation_error',
        );
        assert.equal(refused.errors[0].field, '/new_password', next);
      }
      assert.equal(
        (await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN)).status,
        200,
      );
    });

    test('an API key has no password: 403 person_only', async () => {
      assertProblem(
        await api.put('/admin/session/password', change(PASSWORD, NEW_PASSWORD), bearer(ADMIN_KEY)),
        403,
        'person_only',
      );
    });

    test('the change is in the audit trail as the person’s, with its time and never a password or hash', async () => {
      const facility = api.newFacility();
      const person = await signedUpPerson(api, ADMIN_KEY, facility);
      await api.put('/admin/session/password', change(PASSWORD, NEW_PASSWORD), person.session);
      const trail = await api.get(
        `/admin/facilities/${facility}/audit-events?resource_type=staff_user`,
        bearer(ADMIN_KEY),
      );
      const entry = trail.body.audit_events.find(
        (event: { changes: object }) => 'password_changed_at' in event.changes,
      );
      assert.ok(entry, trail.text);
      assert.deepEqual(entry.actor, { type: 'staff_user', id: person.id, name: person.name });
      assert.equal(entry.action, 'update');
      assert.deepEqual(Object.keys(entry.changes), ['password_changed_at']);
      assert.notEqual(entry.changes.password_changed_at.after, entry.changes.password_changed_at.before);
      const hash = await api.app.db
        .selectFrom('staff_users')
        .select('password_hash')
        .where('id', '=', person.id)
        .executeTakeFirstOrThrow();
      for (const secret of [PASSWORD, NEW_PASSWORD, String(hash.password_hash)]) {
        assert.equal(trail.text.includes(secret), false);
      }
    });

    test('my sessions: each one that has not ended, this one marked, never a secret', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const other = await signInAgain(api, person.email, PASSWORD, 'Firefox on the front desk');
      const listed = await api.get('/admin/session/sessions', person.session);
      assert.equal(listed.status, 200, listed.text);
      const sessions = listed.body.sessions;
      assert.deepEqual(
        sessions.map((s: { current: boolean; method: string; user_agent: string }) => [
          s.current,
          s.method,
          s.user_agent,
        ]),
        [
          [false, 'password', 'Firefox on the front desk'],
          [true, 'link', 'lightMyRequest'],
        ],
      );
      for (const cookie of [person.session.cookie, other.cookie]) {
        assert.equal(listed.text.includes(cookie.split('=')[1]), false, 'no secret in the list');
      }
      assert.deepEqual(Object.keys(sessions[0]).sort(), [
        'created_at',
        'current',
        'expires_at',
        'id',
        'last_seen_at',
        'method',
        'user_agent',
      ]);
    });

    test('ending one of my sessions signs that browser out at once, and only it', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const other = await signInAgain(api, person.email);
      const [otherSession] = (await api.get('/admin/session/sessions', other)).body.sessions;
      const ended = await api.delete(`/admin/session/sessions/${otherSession.id}`, person.session);
      assert.equal(ended.status, 204, ended.text);
      assert.equal(sessionCookieOf(ended), undefined, 'this browser keeps its cookie');
      assertProblem(await api.get('/admin/session', other), 401, 'unauthenticated');
      assert.equal((await api.get('/admin/session', person.session)).status, 200);
      assertProblem(
        await api.delete(`/admin/session/sessions/${otherSession.id}`, person.session),
        404,
        'session_not_found',
      );
    });

    test('ending this session clears its cookie, as signing out does', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const [mine] = (await api.get('/admin/session/sessions', person.session)).body.sessions;
      const ended = await api.delete(`/admin/session/sessions/${mine.id}`, person.session);
      assert.equal(ended.status, 204, ended.text);
      assert.equal(sessionCookieOf(ended)?.split('=')[1], '', 'the cookie is cleared');
      assertProblem(await api.get('/admin/session', person.session), 401, 'unauthenticated');
    });

    test("another person's session is not mine: 404, and it goes on", async () => {
      const facility = api.newFacility();
      const someone = await signedUpPerson(api, ADMIN_KEY, facility);
      const me = await signedUpPerson(api, ADMIN_KEY, facility);
      const [theirs] = (await api.get('/admin/session/sessions', someone.session)).body.sessions;
      assertProblem(
        await api.delete(`/admin/session/sessions/${theirs.id}`, me.session),
        404,
        'session_not_found',
      );
      assertProblem(
        await api.delete(`/admin/session/sessions/${theirs.id}`, bearer(ADMIN_KEY)),
        404,
        'session_not_found',
      );
      assert.equal((await api.get('/admin/session', someone.session)).status, 200);
    });

    test('an API key has no sessions: an empty list', async () => {
      const listed = await api.get('/admin/session/sessions', bearer(ADMIN_KEY));
      assert.deepEqual(listed.body, { sessions: [] });
    });

    test('a password change signed in by the cookie from another site is refused', async () => {
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const crossSite = { cookie: person.session.cookie, 'sec-fetch-site': 'cross-site' };
      assertProblem(
        await api.put('/admin/session/password', change(PASSWORD, NEW_PASSWORD), crossSite),
        403,
        'cross_site_request',
      );
      assert.equal(
        (await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN)).status,
        200,
      );
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    authFailureLimit: 0,
    people: { ...loadConfig({}).people, signInFailuresPerAccount: 3 },
  },
);
