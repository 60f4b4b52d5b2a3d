import { OidcSignInError } from './oidc-sign-in-error.js';

/** The person the provider vouches for. Only a verified e-mail address is ever answered. */
export interface OidcIdentity {
  email: string;
  emailVerified: true;
  name: string | undefined;
  /** The provider's stable id of the person (`sub`), unique within `issuer`. */
  subject: string;
  issuer: string;
}

/** The person `claims` name, when they hold an e-mail address the provider calls verified. */
export function identity(claims: Record<string, unknown>, subject: string, issuer: string): OidcIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '') throw new OidcSignInError('email_missing');
  if (!emailVerified(claims)) throw new OidcSignInError('email_unverified');
  const given = [claims.given_name, claims.family_name].filter((part) => typeof part === 'string').join(' ');
  const name =
    typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : given || undefined;
  return { email, emailVerified: true, name, subject, issuer };
}

/**
 * `email_verified` true (a few providers send it as a string). Microsoft Entra ID sends no
 * `email_verified`; its optional claim `xms_edov` (the address's domain is verified by the
 * tenant's administrator) stands for it there, when the application's token configuration adds it.
 */
function emailVerified(claims: Record<string, unknown>): boolean {
  const verified = claims.email_verified ?? claims.xms_edov;
  return verified === true || verified === 'true';
}
