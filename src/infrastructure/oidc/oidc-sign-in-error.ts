/**
 * Why an OpenID Connect sign-in failed, for the caller to answer with a problem:
 * - `state_mismatch`: the callback's `state` is not the one this browser's sign-in started with
 *   (a forged or replayed callback, or a sign-in started in another tab);
 * - `provider_refused`: the provider answered with an error (`providerError`: access_denied when
 *   the person cancelled, login_required…);
 * - `nonce_mismatch`: the ID Token was not issued for this sign-in;
 * - `email_missing`: the provider gave no e-mail address;
 * - `email_unverified`: the provider does not say that the address is verified, so it cannot
 *   stand for the staff user with that address;
 * - `provider_failed`: discovery, the token request or the ID Token's checks failed, or the
 *   provider could not be reached (`detail` says which, in words that hold no token or secret).
 */
export type OidcFailure =
  | 'state_mismatch'
  | 'provider_refused'
  | 'nonce_mismatch'
  | 'email_missing'
  | 'email_unverified'
  | 'provider_failed';

const WHAT_HAPPENED: Record<OidcFailure, string> = {
  state_mismatch: 'the sign-in callback does not belong to the sign-in this browser started',
  provider_refused: 'the identity provider refused the sign-in',
  nonce_mismatch: 'the ID Token was not issued for this sign-in',
  email_missing: 'the identity provider gave no e-mail address',
  email_unverified: 'the identity provider does not say that the e-mail address is verified',
  provider_failed: 'the sign-in with the identity provider failed',
};

export class OidcSignInError extends Error {
  readonly reason: OidcFailure;
  /** The provider's `error` parameter (`provider_refused` only). */
  readonly providerError: string | undefined;
  /** What failed, for the log: openid-client's error code and message, never a token or secret. */
  readonly detail: string | undefined;
  constructor(reason: OidcFailure, options: { providerError?: string; detail?: string } = {}) {
    const more = options.providerError ?? options.detail;
    super(`${WHAT_HAPPENED[reason]}${more ? ` (${more})` : ''}`);
    this.name = 'OidcSignInError';
    this.reason = reason;
    this.providerError = options.providerError;
    this.detail = options.detail;
  }
}
