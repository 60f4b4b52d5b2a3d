import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { describeEachDialect, type TestResponse } from '../../../test/harness.js';
import { loadConfig } from '../../config.js';
import { startOidcProvider } from '../../infrastructure/oidc/oidc-provider.fixtures.js';

const ADMIN_KEY = 'oidc-routes-admin-key';
const PUBLIC_URL = 'http://localhost';
const provider = await startOidcProvider({ redirectUris: [`${PUBLIC_URL}/admin/session/oidc/callback`] });
after(() => provider.close());

const setCookies = (response: TestResponse) => [response.headers['set-cookie'] ?? []].flat().map(String);

describeEachDialect(
  'session: sign-in through the OpenID Connect provider',
  (api) => {
    /** The browser's round: to the provider, signed in there as `login`, and back with the state's cookie. */
    async function signInAs(login: string) {
      const start = await api.get('/admin/session/oidc');
      assert.equal(start.status, 302, start.text);
      const stateCookie = setCookies(start).find((cookie) => cookie.startsWith('fa_oidc_state='));
      assert.ok(stateCookie);
      const callback = await provider.signIn(String(start.headers.location), login);
      return api.get(`${callback.pathname}${callback.search}`, { cookie: stateCookie.split(';')[0] });
    }

    test('the sign-in options name the provider', async () => {
      const options = await api.get('/admin/sign-in-options');
      assert.deepEqual(options.body, {
        password: true,
        password_reset: false,
        oidc: { label: provider.settings.buttonLabel, url: `${PUBLIC_URL}/admin/session/oidc` },
      });
    });

    test('an invited person with the verified e-mail signs in, becomes active, and lands on the console', async () => {
      const email = `sso${api.newFacility()}@example.test`;
      const invited = await api.post(
        '/admin/staff',
        { email, name: 'Single Sign', roles: [] },
        bearer(ADMIN_KEY),
      );
      provider.addAccount({
        login: `sso-${invited.body.id}`,
        email: email.toUpperCase(),
        emailVerified: true,
        name: 'S',
      });
      const back = await signInAs(`sso-${invited.body.id}`);
      assert.equal(back.status, 302, back.text);
      assert.equal(back.headers.location, `${PUBLIC_URL}/console/`);
      const session = setCookies(back).find((cookie) => /^(__Host-)?fa_session=/.test(cookie));
      assert.ok(session, setCookies(back).join(' | '));
      const me = await api.get('/admin/session', { cookie: session.split(';')[0] });
      assert.deepEqual(me.body.actor, { type: 'staff_user', id: invited.body.id, name: 'Single Sign' });
      assert.equal(
        (await api.get(`/admin/staff/${invited.body.id}`, bearer(ADMIN_KEY))).body.state,
        'active',
      );
    });

    test('no one is created by the provider alone, and an unverified e-mail signs no one in', async () => {
      provider.addAccount({ login: 'stranger', email: 'stranger@example.test', emailVerified: true });
      const stranger = await signInAs('stranger');
      assert.equal(stranger.headers.location, `${PUBLIC_URL}/console/#/signin?problem=oidc_unknown_person`);
      const email = `unverified${api.newFacility()}@example.test`;
      await api.post('/admin/staff', { email, name: 'Unverified', roles: [] }, bearer(ADMIN_KEY));
      provider.addAccount({ login: `unverified-${email}`, email, emailVerified: false });
      const refused = await signInAs(`unverified-${email}`);
      assert.equal(refused.headers.location, `${PUBLIC_URL}/console/#/signin?problem=oidc_refused`);
      assert.ok(!setCookies(refused).some((cookie) => /fa_session=[^;]/.test(cookie)));
    });

    test('a callback without the state cookie of the browser that started is refused', async () => {
      provider.addAccount({ login: 'forged', email: 'forged@example.test', emailVerified: true });
      const start = await api.get('/admin/session/oidc');
      const callback = await provider.signIn(String(start.headers.location), 'forged');
      const forged = await api.get(`${callback.pathname}${callback.search}`);
      assert.equal(forged.headers.location, `${PUBLIC_URL}/console/#/signin?problem=oidc_expired`);
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    oidc: provider.settings,
    people: { ...loadConfig({}).people, publicUrl: PUBLIC_URL },
  },
);
