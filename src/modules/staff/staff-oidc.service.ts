import type { Executor } from '../../db/database.js';
import { insertLink, useLink } from './staff-link.repository.js';

/** Keeps an OpenID sign-in's expectation under its state (hashed, as every link), for one use. */
export async function startOidcSignIn(
  db: Executor,
  start: { state: string; nonce: string; codeVerifier: string },
  withinMs: number,
  now: Date,
): Promise<void> {
  const expiresAt = new Date(now.getTime() + withinMs).toISOString();
  const data = { nonce: start.nonce, codeVerifier: start.codeVerifier };
  await insertLink(
    db,
    start.state,
    { purpose: 'oidc_sign_in', staffUserId: null, data, expiresAt },
    now.toISOString(),
  );
}

/** The expectation of a sign-in coming back, used up; undefined when unknown, used or too late. */
export async function takeOidcSignIn(
  db: Executor,
  state: string,
  now: Date,
): Promise<{ state: string; nonce: string; codeVerifier: string } | undefined> {
  const link = await useLink(db, state, ['oidc_sign_in'], now.toISOString());
  if (!link?.data.nonce || !link.data.codeVerifier) return undefined;
  return { state, nonce: link.data.nonce, codeVerifier: link.data.codeVerifier };
}
