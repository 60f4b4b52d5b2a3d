import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomState } from 'openid-client';
import { loadConfig } from '../../config.js';
import { type OidcTestProvider, startOidcProvider } from './oidc-provider.fixtures.js';
import {
  type OidcFailure,
  type OidcSignIn,
  OidcSignInError,
  oidcSignIn,
  oidcSignInFrom,
} from './oidc-sign-in.js';

const redirectUri = 'http://127.0.0.1:3000/admin/session/oidc/callback';

async function refusal(promise: Promise<unknown>): Promise<OidcSignInError> {
  const error = await promise.then(
    () => assert.fail('the sign-in succeeded'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof OidcSignInError, String(error));
  return error;
}

async function refusedWith(reason: OidcFailure, promise: Promise<unknown>): Promise<OidcSignInError> {
  const error = await refusal(promise);
  assert.equal(error.reason, reason, error.message);
  return error;
}

describe('sign-in with OpenID Connect (authorization code, PKCE, state, nonce)', () => {
  let idp: OidcTestProvider;
  let signIn: OidcSignIn;
  before(async () => {
    idp = await startOidcProvider({ redirectUris: [redirectUri] });
    idp.addAccount({ login: 'ana', email: 'ana@example.test', emailVerified: true, name: 'Ana Silva' });
    idp.addAccount({ login: 'ben', email: 'ben@example.test', emailVerified: false, name: 'Ben' });
    idp.addAccount({ login: 'cy', name: 'Cy, who has no address' });
    idp.addAccount({ login: 'entra', email: 'eve@example.test', domainOwnerVerified: true });
    idp.addAccount({ login: 'entra-guest', email: 'gus@example.test', domainOwnerVerified: false });
    signIn = oidcSignIn(idp.settings, redirectUri);
  });
  after(() => idp.close());

  test('the whole flow: start, sign in at the provider, callback, the verified e-mail', async () => {
    const start = await signIn.startSignIn();
    const authorization = new URL(start.url);
    assert.equal(authorization.origin, idp.issuer);
    assert.equal(authorization.searchParams.get('redirect_uri'), redirectUri);
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorization.searchParams.get('state'), start.state);
    assert.equal(authorization.searchParams.get('nonce'), start.nonce);
    // The verifier stays with the service: only its hash travels.
    assert.equal(start.url.includes(start.codeVerifier), false);

    const callback = await idp.signIn(start.url, 'ana');
    assert.equal(callback.origin + callback.pathname, redirectUri);
    const person = await signIn.finishSignIn(callback, start);
    assert.deepEqual(person, {
      email: 'ana@example.test',
      emailVerified: true,
      name: 'Ana Silva',
      subject: 'ana',
      issuer: idp.issuer,
    });
  });

  test('a callback whose state is not the one this sign-in started with is refused', async () => {
    const start = await signIn.startSignIn();
    const callback = await idp.signIn(start.url, 'ana');
    await refusedWith('state_mismatch', signIn.finishSignIn(callback, { ...start, state: randomState() }));
    // Another sign-in's callback (an attacker's own code, planted in this browser) is refused too.
    const other = await signIn.startSignIn();
    const planted = await idp.signIn(other.url, 'ben');
    await refusedWith('state_mismatch', signIn.finishSignIn(planted, start));
    const withoutState = new URL(callback);
    withoutState.searchParams.delete('state');
    await refusedWith('state_mismatch', signIn.finishSignIn(withoutState, start));
  });

  test('an ID Token with another nonce is refused', async () => {
    const start = await signIn.startSignIn();
    const callback = await idp.signIn(start.url, 'ana');
    await refusedWith('nonce_mismatch', signIn.finishSignIn(callback, { ...start, nonce: 'another' }));
  });

  test('an e-mail the provider does not call verified is refused, and so is none', async () => {
    const start = await signIn.startSignIn();
    await refusedWith('email_unverified', signIn.finishSignIn(await idp.signIn(start.url, 'ben'), start));
    const next = await signIn.startSignIn();
    await refusedWith('email_missing', signIn.finishSignIn(await idp.signIn(next.url, 'cy'), next));
  });

  test("Microsoft Entra ID's xms_edov stands for email_verified, which it does not send", async () => {
    const start = await signIn.startSignIn();
    assert.equal(
      (await signIn.finishSignIn(await idp.signIn(start.url, 'entra'), start)).email,
      'eve@example.test',
    );
    const guest = await signIn.startSignIn();
    await refusedWith(
      'email_unverified',
      signIn.finishSignIn(await idp.signIn(guest.url, 'entra-guest'), guest),
    );
  });

  test('a code is exchanged once, and only with its PKCE verifier', async () => {
    const start = await signIn.startSignIn();
    const callback = await idp.signIn(start.url, 'ana');
    const wrongVerifier = await signIn.startSignIn();
    const error = await refusedWith(
      'provider_failed',
      signIn.finishSignIn(callback, { ...start, codeVerifier: wrongVerifier.codeVerifier }),
    );
    assert.match(error.message, /invalid_grant|OAUTH_RESPONSE_BODY_ERROR/);

    const again = await signIn.startSignIn();
    const used = await idp.signIn(again.url, 'ana');
    assert.equal((await signIn.finishSignIn(used, again)).email, 'ana@example.test');
    await refusedWith('provider_failed', signIn.finishSignIn(used, again));
  });

  test('the provider refusing (the person cancelled) is told apart', async () => {
    const start = await signIn.startSignIn();
    const cancelled = new URL(redirectUri);
    cancelled.search = new URLSearchParams({ error: 'access_denied', state: start.state }).toString();
    const error = await refusedWith('provider_refused', signIn.finishSignIn(cancelled, start));
    assert.equal(error.providerError, 'access_denied');
  });

  test('a provider that puts the e-mail in the ID Token (no UserInfo needed) works too', async () => {
    const generous = await startOidcProvider({ redirectUris: [redirectUri], claimsInIdToken: true });
    try {
      generous.addAccount({ login: 'dee', email: 'Dee@Example.test', emailVerified: true });
      const viaIdToken = oidcSignIn(generous.settings, redirectUri);
      const start = await viaIdToken.startSignIn();
      const person = await viaIdToken.finishSignIn(await generous.signIn(start.url, 'dee'), start);
      assert.equal(person.email, 'Dee@Example.test');
      assert.equal(person.name, undefined);
    } finally {
      await generous.close();
    }
  });

  test('an unreachable provider, or one on plain HTTP off loopback, fails the start', async () => {
    const down = oidcSignIn({ ...idp.settings, issuer: 'http://127.0.0.1:9/' }, redirectUri);
    await refusedWith('provider_failed', down.startSignIn());
    const plain = oidcSignIn({ ...idp.settings, issuer: 'http://idp.example.test/' }, redirectUri);
    const error = await refusedWith('provider_failed', plain.startSignIn());
    assert.match(error.message, /OAUTH_HTTP_REQUEST_FORBIDDEN/);
  });

  test('no secret appears in an error', async () => {
    const start = await signIn.startSignIn();
    const callback = await idp.signIn(start.url, 'ana');
    const error = await refusal(signIn.finishSignIn(callback, { ...start, codeVerifier: 'x'.repeat(43) }));
    const shown = `${error.message} ${error.stack} ${JSON.stringify(error)}`;
    for (const secret of [
      idp.settings.clientSecret,
      start.codeVerifier,
      callback.searchParams.get('code') ?? '',
    ]) {
      assert.equal(shown.includes(secret), false);
    }
  });
});

describe('OIDC settings', () => {
  const settings = {
    OIDC_ISSUER: 'https://login.example.org/tenant',
    OIDC_CLIENT_ID: 'fa',
    OIDC_CLIENT_SECRET: 's3cr3t-value',
  };

  test('unset OIDC_ISSUER: no sign-in with a provider', () => {
    assert.equal(oidcSignInFrom(loadConfig({}), redirectUri), undefined);
  });

  test('set: the button has its default label, or the one given', () => {
    assert.equal(
      oidcSignInFrom(loadConfig(settings), redirectUri)?.buttonLabel,
      "Sign in with your organisation's account",
    );
    const labelled = loadConfig({ ...settings, OIDC_BUTTON_LABEL: 'Sign in with Riverside Gym' });
    assert.equal(labelled.oidc?.buttonLabel, 'Sign in with Riverside Gym');
  });

  test('an http issuer off loopback, or a missing client, is refused at start; the secret is never shown', () => {
    assert.throws(
      () => loadConfig({ ...settings, OIDC_ISSUER: 'http://login.example.org' }),
      /OIDC_ISSUER must be an https URL/,
    );
    assert.equal(
      loadConfig({ ...settings, OIDC_ISSUER: 'http://127.0.0.1:8080' }).oidc?.issuer,
      'http://127.0.0.1:8080',
    );
    assert.throws(() => loadConfig({ ...settings, OIDC_CLIENT_ID: '' }), /OIDC_CLIENT_ID must be set/);
    assert.throws(
      () => loadConfig({ OIDC_CLIENT_SECRET: 's3cr3t-value' }),
      (error: Error) => /need OIDC_ISSUER/.test(error.message) && !error.message.includes('s3cr3t'),
    );
  });
});
