/**
 * Sign-in through the facility's identity provider, in Chromium, on SQLite
 * and PostgreSQL: a real OpenID Provider (oidc-provider) on loopback, whose
 * own sign-in page the test fills as a person would. An invited person lands
 * in the console signed in; someone with no staff account is told why not.
 * The service listens on ports chosen first: the provider must know the
 * redirect URIs before the service starts.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startOidcProvider } from '../../../src/infrastructure/oidc/oidc-provider.fixtures.js';
import { assertAccessible, assertNoPageProblems, describeConsole, screenshot } from './browser.js';
import { ADMIN, namedFacility } from './people.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ports = { sqlite: await freePort(), postgres: await freePort() };
const provider = await startOidcProvider({
  redirectUris: Object.values(ports).map((port) => `http://127.0.0.1:${port}/admin/session/oidc/callback`),
});
after(() => provider.close());

/** On the provider's own page: its login and password boxes, and its button. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

describeConsole(
  'console: sign-in through the identity provider',
  ({ api, consoleUrl, newPage }) => {
    it('signs in an invited person, and tells someone without an account why not', async () => {
      const gym = await namedFacility(api, 'Harbour Pool');
      const email = `olu.${api.dialect}@example.test`;
      const invited = await api.post(
        '/admin/staff',
        { email, name: 'Olu Front', roles: [{ facility_id: gym.id, role: 'front_desk' }] },
        ADMIN,
      );
      assert.equal(invited.status, 201, invited.text);
      provider.addAccount({ login: `olu-${api.dialect}`, email, emailVerified: true, name: 'Olu' });
      provider.addAccount({
        login: `nobody-${api.dialect}`,
        email: `nobody.${api.dialect}@example.test`,
        emailVerified: true,
      });

      const page = await newPage({ allowOrigins: [provider.issuer] });
      await page.goto(consoleUrl());
      await assertAccessible(page, 'sign-in with a provider');
      await screenshot(page, 'sign-in-oidc');
      await page.getByRole('link', { name: provider.settings.buttonLabel }).click();
      await signInAtProvider(page, `nobody-${api.dialect}`);
      await page.getByText('no staff account here has that e-mail address').waitFor();
      await screenshot(page, 'sign-in-oidc-unknown');

      // A fresh browser: the provider's own session would otherwise sign in the same account again.
      const olu = await newPage({ allowOrigins: [provider.issuer] });
      await olu.goto(consoleUrl());
      await olu.getByRole('link', { name: provider.settings.buttonLabel }).click();
      await signInAtProvider(olu, `olu-${api.dialect}`);
      await olu.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      await olu.getByRole('link', { name: 'Olu Front' }).waitFor();
      await olu.getByRole('link', { name: gym.name }).click();
      await olu.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      assert.equal((await api.get(`/admin/staff/${invited.body.id}`, ADMIN)).body.state, 'active');
      // The provider's development page asks for a web font; that request is aborted, as every other is.
      for (const each of [page, olu]) assertNoPageProblems(each, /fonts\.googleapis\.com/);
    });
  },
  {
    startAt: new Date().toISOString(),
    config: { oidc: provider.settings },
    port: (dialect) => ports[dialect],
  },
);
