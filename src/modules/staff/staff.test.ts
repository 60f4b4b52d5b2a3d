import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { type Api, assertProblem, describeEachDialect, type TestResponse } from '../../../test/harness.js';
import { loadConfig } from '../../config.js';
import { startSmtpServer } from '../../infrastructure/mail/smtp-server.fixtures.js';

const ADMIN_KEY = 'staff-test-admin-key';
const admin = bearer(ADMIN_KEY);
/** What the console's own pages send with a change (the browser sets it). */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const PASSWORD = 'a long and unusual passphrase';

const smtp = await startSmtpServer();
after(() => smtp.close());

/** The session cookie a sign-in set, as the browser sends it back. */
function cookieOf(response: TestResponse): { cookie: string } {
  const header = String(response.headers['set-cookie']);
  const match = /^(__Host-fa_session|fa_session)=([^;]+);/.exec(header);
  assert.ok(match, `a session cookie is set: ${header}`);
  assert.match(header, /HttpOnly/i);
  assert.match(header, /SameSite=Lax/i);
  return { cookie: `${match[1]}=${match[2]}` };
}

function tokenOf(url: string): string {
  const token = new URL(url.replace('#/link', 'link')).searchParams.get('token');
  assert.ok(token, `a token in ${url}`);
  return token;
}

async function invite(api: Api, email: string, roles: unknown[], headers: Record<string, string> = admin) {
  const response = await api.post('/admin/staff', { email, name: `Person ${email}`, roles }, headers);
  assert.equal(response.status, 201, response.text);
  return response.body;
}

async function signInByLink(api: Api, url: string, password = PASSWORD) {
  const response = await api.post('/admin/session/link', { token: tokenOf(url), password }, SAME_ORIGIN);
  assert.equal(response.status, 200, response.text);
  return { ...cookieOf(response), ...SAME_ORIGIN } as Record<string, string>;
}

describeEachDialect(
  'staff: invitations, sign-in, roles and sessions',
  (api) => {
    test('an invitation without SMTP answers the link; the link sets a password and signs the person in', async () => {
      const facility = api.newFacility();
      const invited = await invite(api, `manager${facility}@example.test`, [
        { facility_id: facility, role: 'manager' },
      ]);
      assert.equal(invited.state, 'invited');
      assert.equal(invited.invitation.emailed, false);
      const session = await signInByLink(api, invited.invitation.url);
      const me = await api.get('/admin/session', session);
      assert.deepEqual(me.body.actor, { type: 'staff_user', id: invited.id, name: invited.name });
      assert.deepEqual(
        me.body.roles.map((role: { facility_id: number; role: string }) => [role.facility_id, role.role]),
        [[facility, 'manager']],
      );
      assert.equal((await api.get(`/admin/staff/${invited.id}`, admin)).body.state, 'active');
      assertProblem(
        await api.post(
          '/admin/session/link',
          { token: tokenOf(invited.invitation.url), password: PASSWORD },
          SAME_ORIGIN,
        ),
        410,
        'link_not_usable',
      );
    });

    test('a password sign-in: the same 401 for a wrong password and an unknown e-mail', async () => {
      const email = `desk${api.newFacility()}@example.test`;
      await signInByLink(api, (await invite(api, email, [])).invitation.url);
      const right = await api.post(
        '/admin/session',
        { email: email.toUpperCase(), password: PASSWORD },
        SAME_ORIGIN,
      );
      assert.equal(right.status, 200, right.text);
      cookieOf(right);
      const wrong = assertProblem(
        await api.post('/admin/session', { email, password: 'not it at all' }, SAME_ORIGIN),
        401,
        'unauthenticated',
      );
      const unknown = assertProblem(
        await api.post(
          '/admin/session',
          { email: 'nobody@example.test', password: 'not it at all' },
          SAME_ORIGIN,
        ),
        401,
        'unauthenticated',
      );
      assert.equal(wrong.detail, unknown.detail);
    });

    test('a front desk signed in does what the role allows, and the audit names the person', async () => {
      const facility = api.newFacility();
      const desk = await invite(api, `frontdesk${facility}@example.test`, [
        { facility_id: facility, role: 'front_desk' },
      ]);
      const session = await signInByLink(api, desk.invitation.url);
      const member = await api.post(
        `/admin/facilities/${facility}/members`,
        { first_name: 'Walk-in' },
        session,
      );
      assert.equal(member.status, 201, member.text);
      assertProblem(
        await api.delete(`/admin/facilities/${facility}/members/${member.body.id}`, session),
        403,
        'forbidden',
      );
      assertProblem(
        await api.post(`/admin/facilities/${facility}/plans`, { name: 'Nope' }, session),
        403,
        'forbidden',
      );
      assertProblem(await api.get(`/admin/facilities/${facility + 1000}/members`, session), 403, 'forbidden');
      const trail = await api.get(`/admin/facilities/${facility}/audit-events?resource_type=member`, admin);
      assert.deepEqual(trail.body.audit_events[0].actor, {
        type: 'staff_user',
        id: desk.id,
        name: desk.name,
      });
      assert.equal(trail.body.audit_events[0].api_key_id, null);
    });

    test('a change signed in by the cookie from another site is refused and writes nothing', async () => {
      const facility = api.newFacility();
      const owner = await invite(api, `owner${facility}@example.test`, [
        { facility_id: facility, role: 'owner' },
      ]);
      const { cookie } = await signInByLink(api, owner.invitation.url);
      const crossSites: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        {},
      ];
      for (const crossSite of crossSites) {
        assertProblem(
          await api.post(`/admin/facilities/${facility}/plans`, { name: 'Forged' }, { cookie, ...crossSite }),
          403,
          'cross_site_request',
        );
      }
      assert.deepEqual((await api.get(`/admin/facilities/${facility}/plans`, { cookie })).body.plans, []);
      assertProblem(
        await api.post(
          '/admin/session',
          { email: owner.email, password: PASSWORD },
          { origin: 'https://evil.example' },
        ),
        403,
        'cross_site_request',
      );
    });

    test("a disabled person's session is refused from the next request", async () => {
      const facility = api.newFacility();
      const person = await invite(api, `leaver${facility}@example.test`, [
        { facility_id: facility, role: 'viewer' },
      ]);
      const session = await signInByLink(api, person.invitation.url);
      assert.equal((await api.get(`/admin/facilities/${facility}/plans`, session)).status, 200);
      const disabled = await api.patch(`/admin/staff/${person.id}`, { state: 'disabled' }, admin);
      assert.equal(disabled.body.state, 'disabled');
      assertProblem(await api.get(`/admin/facilities/${facility}/plans`, session), 401, 'unauthenticated');
      assertProblem(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
        401,
        'unauthenticated',
      );
    });

    test('sign out ends the session; sign out everywhere ends all of them', async () => {
      const person = await invite(api, `twodevices${api.newFacility()}@example.test`, []);
      const first = await signInByLink(api, person.invitation.url);
      const second = cookieOf(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
      );
      assert.notEqual(first.cookie, second.cookie, 'a new session id at each sign-in');
      assert.equal((await api.delete('/admin/session', first)).status, 204);
      assertProblem(await api.get('/admin/session', first), 401, 'unauthenticated');
      const third = cookieOf(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
      );
      assert.equal(
        (await api.post('/admin/session/sign-out-everywhere', undefined, { ...third, ...SAME_ORIGIN }))
          .status,
        204,
      );
      assertProblem(await api.get('/admin/session', second), 401, 'unauthenticated');
      assertProblem(await api.get('/admin/session', third), 401, 'unauthenticated');
    });

    test('an owner of one facility grants roles there only, and sees only its people', async () => {
      const [mine, theirs] = [api.newFacility(), api.newFacility()];
      const owner = await invite(api, `localowner${mine}@example.test`, [
        { facility_id: mine, role: 'owner' },
      ]);
      const session = await signInByLink(api, owner.invitation.url);
      const stranger = await invite(api, `stranger${theirs}@example.test`, [
        { facility_id: theirs, role: 'viewer' },
      ]);
      assertProblem(
        await api.post(
          '/admin/staff',
          { email: `x${theirs}@example.test`, name: 'X', roles: [{ facility_id: theirs, role: 'viewer' }] },
          session,
        ),
        403,
        'forbidden',
      );
      assertProblem(
        await api.post(
          '/admin/staff',
          { email: `y${mine}@example.test`, name: 'Y', roles: [{ facility_id: null, role: 'viewer' }] },
          session,
        ),
        403,
        'forbidden',
      );
      const hired = await invite(
        api,
        `hired${mine}@example.test`,
        [{ facility_id: mine, role: 'front_desk' }],
        session,
      );
      const listed = (await api.get('/admin/staff?limit=1000', session)).body.staff.map(
        (user: { id: number }) => user.id,
      );
      assert.ok(listed.includes(hired.id) && !listed.includes(stranger.id));
      assertProblem(await api.get(`/admin/staff/${stranger.id}`, session), 404, 'staff_not_found');
      assertProblem(await api.patch(`/admin/staff/${owner.id}`, { roles: [] }, session), 403, 'forbidden');
    });

    test('a new invitation is only for someone still invited; a reset link not for a disabled person', async () => {
      const person = await invite(api, `active${api.newFacility()}@example.test`, []);
      await signInByLink(api, person.invitation.url);
      assertProblem(
        await api.post(`/admin/staff/${person.id}/invitation`, undefined, admin),
        409,
        'staff_state_conflict',
      );
      const reset = await api.post(`/admin/staff/${person.id}/password-reset`, undefined, admin);
      assert.equal(reset.status, 200, reset.text);
      await signInByLink(api, reset.body.invitation.url, 'another long passphrase here');
      await api.patch(`/admin/staff/${person.id}`, { state: 'disabled' }, admin);
      assertProblem(
        await api.post(`/admin/staff/${person.id}/password-reset`, undefined, admin),
        409,
        'staff_state_conflict',
      );
    });

    test('e-mails are unique ignoring case; roles name a facility once', async () => {
      const email = `Unique${api.newFacility()}@example.test`;
      await invite(api, email, []);
      assertProblem(
        await api.post('/admin/staff', { email: email.toLowerCase(), name: 'Again', roles: [] }, admin),
        409,
        'staff_email_conflict',
      );
      const twice = await api.post(
        '/admin/staff',
        {
          email: `twice${email}`,
          name: 'Twice',
          roles: [
            { facility_id: 1, role: 'viewer' },
            { facility_id: 1, role: 'owner' },
          ],
        },
        admin,
      );
      assertProblem(twice, 400, 'validation_error');
    });

    test('a person takes staff roles only: admin and door are for API keys, refused before any write', async () => {
      for (const role of ['admin', 'door']) {
        const email = `${role}${api.newFacility()}@example.test`;
        const refused = assertProblem(
          await api.post(
            '/admin/staff',
            { email, name: 'Key role', roles: [{ facility_id: 1, role }] },
            admin,
          ),
          400,
          'validation_error',
        );
        assert.match(JSON.stringify(refused.errors), /\/roles\/0\/role/);
        const listed = await api.get('/admin/staff?limit=100', admin);
        assert.equal(
          listed.body.staff.some((user: { email: string }) => user.email === email),
          false,
        );
      }
    });

    test('a password too short or holding the e-mail is refused, and the link stays usable', async () => {
      const email = `rules${api.newFacility()}@example.test`;
      const invited = await invite(api, email, []);
      const token = tokenOf(invited.invitation.url);
      for (const password of ['short', `my ${email} password`]) {
        const refused = assertProblem(
          await api.post('/admin/session/link', { token, password }, SAME_ORIGIN),
          400,
          'validation_error',
        );
        assert.equal(refused.errors[0].field, '/password');
      }
      assert.equal(
        (await api.post('/admin/session/link', { token, password: PASSWORD }, SAME_ORIGIN)).status,
        200,
      );
    });

    test('no password hash, session or link secret in any answer or in the audit trail', async () => {
      const facility = api.newFacility();
      const person = await invite(api, `secret${facility}@example.test`, [
        { facility_id: facility, role: 'viewer' },
      ]);
      await signInByLink(api, person.invitation.url);
      const answers = [
        (await api.get(`/admin/staff/${person.id}`, admin)).text,
        (await api.get(`/admin/facilities/${facility}/audit-events?resource_type=staff_user`, admin)).text,
      ].join('\n');
      assert.doesNotMatch(answers, /argon2|password_hash|secret_hash/);
      assert.ok(!answers.includes(tokenOf(person.invitation.url)));
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY },
);

describeEachDialect(
  'staff: invitations by e-mail and the per-account limit',
  (api) => {
    test('with SMTP set the invitation is e-mailed, not answered, and its link signs the person in', async () => {
      const email = `mailed${api.newFacility()}@example.test`;
      const invited = await invite(api, email, []);
      assert.deepEqual([invited.invitation.emailed, invited.invitation.url], [true, null]);
      const message = await smtp.waitForMessage(email);
      assert.match(message.subject, /invited/);
      const link = message.links.find((url) => url.includes('token='));
      assert.ok(link, message.text);
      await signInByLink(api, link);
    });

    test('after SIGN_IN_FAILURES_PER_ACCOUNT failures the account is refused, the right password too', async () => {
      const email = `guessed${api.newFacility()}@example.test`;
      const invited = await invite(api, email, []);
      await signInByLink(
        api,
        (await smtp.waitForMessage(email)).links.find((url) => url.includes('token=')) ?? '',
      );
      assert.equal(invited.state, 'invited');
      for (let i = 0; i < 3; i++) {
        assertProblem(
          await api.post('/admin/session', { email, password: `wrong guess ${i}` }, SAME_ORIGIN),
          401,
          'unauthenticated',
        );
      }
      assertProblem(
        await api.post('/admin/session', { email, password: PASSWORD }, SAME_ORIGIN),
        429,
        'rate_limited',
      );
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    mail: { smtpUrl: smtp.url, from: 'facility-admin <staff@example.test>' },
    people: { ...loadConfig({}).people, signInFailuresPerAccount: 3 },
  },
);
