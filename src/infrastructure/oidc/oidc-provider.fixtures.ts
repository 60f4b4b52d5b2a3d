/**
 * A real OpenID Provider for tests (`oidc-provider`, a certified implementation), on loopback on
 * a free port, with one confidential client (authorization code, PKCE) and the accounts a test
 * gives it. Its sign-in page is oidc-provider's development form: a "login" box (the account's
 * login; any password) and a "Sign-in" button, which a test completes over HTTP with
 * `signIn(url, login)`, or in Chromium by filling the boxes with the placeholders "Enter any
 * login" and "and password" and pressing the button "Sign-in" (checked with playwright-core).
 * Consent is not asked (the client is the provider's own, first-party).
 *
 *   const idp = await startOidcProvider({ redirectUris: [`${service}/admin/session/oidc/callback`] });
 *   idp.addAccount({ login: 'ana', email: 'ana@example.test', emailVerified: true, name: 'Ana Silva' });
 *   const config = { ...loadConfig({}), oidc: idp.settings };
 *   const callback = await idp.signIn(authorizationUrl, 'ana'); // the URL the browser would be sent to
 *   await idp.close();
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcSettings } from '../../config.js';

export interface TestAccount {
  /** What is typed in the login box; also the account's subject (`sub`). */
  login: string;
  email?: string;
  emailVerified?: boolean;
  /** Microsoft Entra ID's `xms_edov` (it sends no `email_verified`). */
  domainOwnerVerified?: boolean;
  name?: string;
}

export interface OidcTestProvider {
  issuer: string;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and the button's label for the service. */
  settings: OidcSettings;
  addAccount(account: TestAccount): void;
  /**
   * Follows the provider's pages from `authorizationUrl` as a browser would, signing in as
   * `login`, and answers the URL the provider then sends the browser to: a redirect URI with
   * `code` and `state` (or `error`) in its query. That URL itself is not requested.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export interface OidcTestProviderOptions {
  redirectUris: string[];
  /** Put email, email_verified and name in the ID Token too (Google, Keycloak do); by default they come from UserInfo only. */
  claimsInIdToken?: boolean;
}

export async function startOidcProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const accounts = new Map<string, TestAccount>();
  const clientId = 'facility-admin';
  const clientSecret = randomBytes(24).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // Its own keys, so that it does not warn about (and use) the published development keys.
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    conformIdTokenClaims: options.claimsInIdToken !== true,
    pkce: { required: () => true },
    // Lifetimes of its own, in seconds (the defaults print a notice each).
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: account.emailVerified,
            xms_edov: account.domainOwnerVerified,
            name: account.name,
          };
        },
      };
    },
    // Consent is taken as given, as a provider does for its organisation's own applications.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());
  return {
    issuer,
    settings: { issuer, clientId, clientSecret, buttonLabel: 'Sign in with the test provider' },
    addAccount(account) {
      accounts.set(account.login, account);
    },
    signIn: (authorizationUrl, login) => followSignIn(authorizationUrl, login, options.redirectUris),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What a browser does on the provider's pages: follow redirects, keep cookies, submit the form. */
async function followSignIn(authorizationUrl: string, login: string, redirectUris: string[]): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let request: RequestInit = { method: 'GET' };
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, {
      ...request,
      redirect: 'manual',
      headers: { ...(request.headers as Record<string, string>), cookie: cookieHeader(cookies) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(pair.slice(0, at));
      else cookies.set(pair.slice(0, at), value);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (redirectUris.some((uri) => url.href.startsWith(`${uri}?`) || url.href === uri)) return url;
      request = { method: 'GET' };
      continue;
    }
    const page = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(page);
    if (response.status !== 200 || !form) {
      throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`);
    }
    const fields = new URLSearchParams();
    for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
      fields.set(name, value);
    }
    if (/name="login"/.test(page)) {
      fields.set('login', login);
      fields.set('password', 'any password');
    }
    url = new URL(form[1].replaceAll('&amp;', '&'), url);
    request = {
      method: 'POST',
      body: fields.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('the provider did not send the browser back to a redirect URI');
}

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}
