import { AppError, invalidField } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { commandLineWriteContext, type WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import {
  hashPassword,
  verifyAgainstDummy,
  verifyPassword,
} from '../../infrastructure/passwords/password-hash.js';
import { passwordProblem } from '../../infrastructure/passwords/password-rules.js';
import { write } from '../../journal/write-path.js';
import { journalPasswordChange } from './staff.audit.js';
import { findStaffByEmail, findStaffById, updateStaff } from './staff.repository.js';
import { deliverLink, type LinkDelivery } from './staff.service.js';
import { deleteUnusedLinksOf, insertLink, newLinkSecret } from './staff-link.repository.js';
import {
  deleteSessionOf,
  deleteSessionsOf,
  findSessionById,
  insertSession,
  type ListedSession,
  listSessionsOf,
  newSessionSecret,
} from './staff-session.repository.js';
import type { NewSession, SessionSettings } from './staff-sign-in.service.js';
import './staff.problems.js';

/** The per-account count of failed password checks that sign-in keeps too (src/modules/session/account-failures.ts). */
export interface PasswordAttempts {
  assertMayTry(email: string, now: Date): void;
  add(email: string, now: Date): void;
}

/** More than a person plausibly has open at once; the list shows the newest. */
export const SESSIONS_LISTED_AT_MOST = 100;

const personOnly = (what: string) =>
  new AppError(
    'person_only',
    `${what} is for a person signed in to the console; an API key has no password nor sessions`,
  );

/**
 * A person changes their own password: the current one must be right (a
 * wrong one counts against the account, as a failed sign-in does), the new
 * one follows the rules. Every session of the person ends, this one too,
 * and a new one takes its place (a new secret, the same end of life), and
 * an unused reset link ends: what leaked before the change is of no use
 * after it.
 */
export async function changeOwnPassword(
  db: Db,
  context: WriteContext,
  passwords: { current: string; next: string },
  attempts: PasswordAttempts,
): Promise<NewSession> {
  const { staffUserId, sessionId } = context.principal;
  if (staffUserId === null || sessionId === null) throw personOnly('Changing a password');
  const found = await findStaffById(db, staffUserId);
  if (!found) throw personOnly('Changing a password');
  attempts.assertMayTry(found.user.email, context.now);
  const problem = passwordProblem(passwords.next, { email: found.user.email });
  if (problem) throw invalidField('body', '/new_password', problem);
  const right = found.passwordHash
    ? await verifyPassword(found.passwordHash, passwords.current)
    : await verifyAgainstDummy(passwords.current);
  if (!right) {
    attempts.add(found.user.email, context.now);
    throw new AppError('current_password_wrong', 'The current password is not right');
  }
  const hash = await hashPassword(passwords.next);
  return write(db, context, async (change) => {
    const at = change.now.toISOString();
    const locked = await findStaffById(change.trx, staffUserId, { lock: true });
    const session = await findSessionById(change.trx, sessionId);
    // Changed or signed out meanwhile (another tab): the check above was against what is gone.
    if (!locked || locked.passwordHash !== found.passwordHash || !session) {
      throw new AppError('current_password_wrong', 'The password was changed meanwhile: sign in again');
    }
    await updateStaff(change.trx, staffUserId, { password_hash: hash, password_changed_at: at }, at);
    journalPasswordChange(change, locked.user, { before: locked.passwordChangedAt, after: at });
    await deleteSessionsOf(change.trx, staffUserId);
    await deleteUnusedLinksOf(change.trx, staffUserId, 'password_reset');
    const secret = newSessionSecret();
    await insertSession(
      change.trx,
      secret,
      { staffUserId, method: session.method, userAgent: session.userAgent, expiresAt: session.expiresAt },
      at,
    );
    return { secret, expiresAt: session.expiresAt };
  });
}

/** The caller's sessions that have not ended, newest first; an API key has none. */
export async function listOwnSessions(
  db: Executor,
  principal: Principal,
  settings: SessionSettings,
  now: Date,
): Promise<(ListedSession & { current: boolean })[]> {
  if (principal.staffUserId === null) return [];
  const ended = {
    idleBefore: new Date(now.getTime() - settings.idleMs).toISOString(),
    now: now.toISOString(),
  };
  const sessions = await listSessionsOf(db, principal.staffUserId, ended, SESSIONS_LISTED_AT_MOST);
  return sessions.map((session) => ({ ...session, current: session.id === principal.sessionId }));
}

/** Ends one of the caller's sessions (404 for any other id: an API key has none). */
export async function endOwnSession(db: Executor, principal: Principal, id: number): Promise<void> {
  const ended = principal.staffUserId !== null && (await deleteSessionOf(db, principal.staffUserId, id));
  if (!ended) throw new AppError('session_not_found', `You have no session ${id}`);
}

/**
 * "Forgot password": when an active person has the e-mail and e-mail can be
 * sent, a password reset link goes to them (as an owner's reset would);
 * otherwise nothing happens. The caller learns neither: its answer was given
 * before this runs (src/modules/session/password-reset.routes.ts).
 */
export async function sendForgottenPasswordLink(
  db: Db,
  links: LinkDelivery,
  email: string,
  now: Date,
): Promise<'sent' | 'no_person' | 'no_mail' | 'mail_failed'> {
  if (!links.mail) return 'no_mail';
  const secret = newLinkSecret();
  const made = await write(db, commandLineWriteContext(now), async (change) => {
    const found = await findStaffByEmail(change.trx, email);
    if (found?.user.state !== 'active') return undefined;
    const expiresAt = new Date(now.getTime() + links.validMs.password_reset).toISOString();
    const link = { purpose: 'password_reset' as const, staffUserId: found.user.id, data: {}, expiresAt };
    await insertLink(change.trx, secret, link, now.toISOString());
    return { user: found.user, expiresAt };
  });
  if (!made) return 'no_person';
  const delivered = await deliverLink(links, 'password_reset', secret, made.user, made.expiresAt);
  return delivered.emailed ? 'sent' : 'mail_failed';
}
