import { timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import { type Config, isLoopbackHost, type OidcSettings } from '../../config.js';
import { identity, type OidcIdentity } from './oidc-identity.js';
import { OidcSignInError } from './oidc-sign-in-error.js';

export type { OidcIdentity } from './oidc-identity.js';
export { type OidcFailure, OidcSignInError } from './oidc-sign-in-error.js';

/** What the caller keeps server-side (a short-lived row, or a signed HttpOnly cookie) until the callback. */
export interface OidcExpectation {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcSignInStart extends OidcExpectation {
  /** Where to send the browser: the provider's authorization endpoint with the request in its query. */
  url: string;
}

export interface OidcSignIn {
  /** The console's button (OIDC_BUTTON_LABEL). */
  buttonLabel: string;
  startSignIn(): Promise<OidcSignInStart>;
  /**
   * Checks the callback (any URL whose query is the callback's, e.g. `new URL(request.url,
   * redirectUri)`) against what its start kept, exchanges the code (with the PKCE verifier) and
   * checks the ID Token. Rejects with an OidcSignInError.
   */
  finishSignIn(callbackUrl: URL | string, expected: OidcExpectation): Promise<OidcIdentity>;
}

const SCOPE = 'openid email profile';
/** Seconds for each request to the provider (discovery, token, keys, userinfo); the library's default is 30. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The OIDC_* sign-in for this redirect URI, or undefined when OIDC_ISSUER is not set. */
export function oidcSignInFrom(config: Pick<Config, 'oidc'>, redirectUri: string): OidcSignIn | undefined {
  return config.oidc ? oidcSignIn(config.oidc, redirectUri) : undefined;
}

export function oidcSignIn(settings: OidcSettings, redirectUri: string): OidcSignIn {
  const issuer = new URL(settings.issuer);
  // openid-client sends nothing over plain HTTP unless told to. An issuer on loopback (the
  // tests' oidc-provider, a provider on the same machine) is not on any network an attacker
  // could watch, so only there is http allowed; config.ts refuses any other http issuer.
  const insecureAllowed = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  let discovered: Promise<client.Configuration> | undefined;

  /** Discovered once, when first needed (the service starts while the provider is down), then kept. */
  function configuration(): Promise<client.Configuration> {
    discovered ??= discover(settings, issuer, insecureAllowed).catch((error: unknown) => {
      discovered = undefined;
      throw failure(error);
    });
    return discovered;
  }

  return {
    buttonLabel: settings.buttonLabel,
    async startSignIn() {
      const config = await configuration();
      const expectation = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: expectation.state,
        nonce: expectation.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(expectation.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, ...expectation };
    },

    async finishSignIn(callbackUrl, expected) {
      const callback = new URL(callbackUrl);
      if (!sameSecret(callback.searchParams.get('state'), expected.state)) {
        throw new OidcSignInError('state_mismatch');
      }
      const providerError = callback.searchParams.get('error');
      if (providerError !== null) {
        throw new OidcSignInError('provider_refused', { providerError: providerError.slice(0, 100) });
      }
      const config = await configuration();
      try {
        const tokens = await client.authorizationCodeGrant(
          config,
          callback,
          {
            pkceCodeVerifier: expected.codeVerifier,
            expectedState: expected.state,
            expectedNonce: expected.nonce,
          },
          // The redirect URI the code was issued for, not the URL the callback arrived at (a proxy may have rewritten it).
          { redirect_uri: redirectUri },
        );
        const idToken = tokens.claims();
        if (!idToken)
          throw new OidcSignInError('provider_failed', { detail: 'no ID Token in the token response' });
        let claims: Record<string, unknown> = idToken;
        // Providers that follow OpenID Connect Core to the letter answer scope claims (email,
        // email_verified, name) from the UserInfo endpoint only, not in the ID Token.
        // The address and whether it is verified are then both taken from UserInfo, never one from each.
        if (typeof claims.email !== 'string' || (claims.email_verified ?? claims.xms_edov) === undefined) {
          if (config.serverMetadata().userinfo_endpoint) {
            const { name, given_name, family_name } = idToken;
            const userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
            claims = { name, given_name, family_name, ...userInfo };
          }
        }
        return identity(claims, idToken.sub, config.serverMetadata().issuer);
      } catch (error) {
        throw failure(error);
      }
    },
  };
}

async function discover(
  settings: OidcSettings,
  issuer: URL,
  insecureAllowed: boolean,
): Promise<client.Configuration> {
  const discovered = await client.discovery(issuer, settings.clientId, undefined, undefined, {
    execute: insecureAllowed ? [client.allowInsecureRequests] : [],
    timeout: PROVIDER_TIMEOUT_SECONDS,
  });
  // client_secret_basic is the default of OpenID Connect (and so of most providers' clients);
  // client_secret_post only for a provider that offers nothing else.
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
  const post =
    methods !== undefined &&
    !methods.includes('client_secret_basic') &&
    methods.includes('client_secret_post');
  const authentication = post
    ? client.ClientSecretPost(settings.clientSecret)
    : client.ClientSecretBasic(settings.clientSecret);
  const config = new client.Configuration(
    discovered.serverMetadata(),
    settings.clientId,
    undefined,
    authentication,
  );
  if (insecureAllowed) client.allowInsecureRequests(config);
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  return config;
}

function sameSecret(received: string | null, expected: string): boolean {
  if (received === null) return false;
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** openid-client's error as an OidcSignInError: its code and message only (its cause may hold tokens or claims). */
function failure(error: unknown): OidcSignInError {
  if (error instanceof OidcSignInError) return error;
  const { code, cause } = error as { code?: string; cause?: { cause?: { claim?: string } } };
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && cause?.cause?.claim === 'nonce') {
    return new OidcSignInError('nonce_mismatch');
  }
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcSignInError('provider_refused', { providerError: error.error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new OidcSignInError('provider_failed', { detail: code ? `${code}: ${message}` : message });
}
