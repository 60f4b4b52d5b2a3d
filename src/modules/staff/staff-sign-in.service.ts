import { AppError, invalidField } from '../../core/errors.js';
import './staff.problems.js';
import { type Principal, staffPrincipal } from '../../core/principal.js';
import { commandLineWriteContext, type WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import {
  hashPassword,
  verifyAgainstDummy,
  verifyPassword,
} from '../../infrastructure/passwords/password-hash.js';
import { passwordProblem } from '../../infrastructure/passwords/password-rules.js';
import { write } from '../../journal/write-path.js';
import { journalStaffChange } from './staff.audit.js';
import {
  countStaff,
  findRolesOf,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  replaceRoles,
  updateStaff,
} from './staff.repository.js';
import { insertLink, type LinkPurpose, newLinkSecret, useLink } from './staff-link.repository.js';
import {
  deleteSession,
  deleteSessionsOf,
  findSessionBySecret,
  insertSession,
  newSessionSecret,
  touchSession,
} from './staff-session.repository.js';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
}

/** A session's last use is written at most this often: a console clicking along costs no write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface NewSession {
  secret: string;
  expiresAt: string;
}

/**
 * The principal of a session cookie, read from the database on every
 * request, so that a disabled person or a removed role is refused at once
 * on every instance. Undefined when the session ended (idle or too old), or
 * its person may no longer sign in.
 */
export async function principalOfSession(
  db: Executor,
  secret: string,
  settings: SessionSettings,
  now: Date,
): Promise<Principal | undefined> {
  const session = await findSessionBySecret(db, secret, now.toISOString());
  if (!session || Date.parse(session.lastSeenAt) + settings.idleMs <= now.getTime()) return undefined;
  const found = await findStaffById(db, session.staffUserId);
  if (found?.user.state !== 'active') return undefined;
  if (now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) {
    await touchSession(db, session.id, now.toISOString());
  }
  const grants = (await findRolesOf(db, [found.user.id])).get(found.user.id) ?? [];
  return staffPrincipal(found.user, grants, session.id);
}

async function startSession(
  db: Executor,
  staffUserId: number,
  method: 'password' | 'oidc' | 'link',
  userAgent: string | null,
  settings: SessionSettings,
  now: Date,
): Promise<NewSession> {
  // A new secret at every sign-in: a session id planted before it (fixation) is never the one signed in.
  const secret = newSessionSecret();
  const expiresAt = new Date(now.getTime() + settings.maxMs).toISOString();
  await insertSession(db, secret, { staffUserId, method, userAgent, expiresAt }, now.toISOString());
  await updateStaff(db, staffUserId, { last_sign_in_at: now.toISOString() }, now.toISOString());
  return { secret, expiresAt };
}

const wrongCredentials = () =>
  new AppError('unauthenticated', 'The e-mail or the password is not right', {
    headers: { 'www-authenticate': 'Bearer realm="facility-admin"' },
  });

/**
 * Signs in with a password. An unknown e-mail, a person without a password
 * and a wrong password take the same time (a hash is verified each time) and
 * get the same answer; so does a disabled person's right password.
 */
export async function signInWithPassword(
  db: Db,
  credentials: { email: string; password: string; userAgent: string | null },
  settings: SessionSettings,
  now: Date,
): Promise<NewSession> {
  const found = await findStaffByEmail(db, credentials.email);
  const hash = found?.passwordHash;
  const right = hash
    ? await verifyPassword(hash, credentials.password)
    : await verifyAgainstDummy(credentials.password);
  if (!found || !right || found.user.state !== 'active') throw wrongCredentials();
  return startSession(db, found.user.id, 'password', credentials.userAgent, settings, now);
}

/** Signs in someone whose e-mail an identity provider verified: an active or invited person (invited becomes active). */
export async function signInWithVerifiedEmail(
  db: Db,
  email: string,
  userAgent: string | null,
  settings: SessionSettings,
  now: Date,
): Promise<NewSession | undefined> {
  return write(db, commandLineWriteContext(now), async (change) => {
    const found = await findStaffByEmail(change.trx, email);
    if (!found || found.user.state === 'disabled') return undefined;
    if (found.user.state === 'invited') {
      await updateStaff(change.trx, found.user.id, { state: 'active' }, now.toISOString());
      const after = { ...found.user, state: 'active' as const };
      journalStaffChange(
        { ...change, context: signedInContext(found.user, now) },
        { action: 'update', before: found.user, after },
      );
    }
    return startSession(change.trx, found.user.id, 'oidc', userAgent, settings, now);
  });
}

/**
 * Uses a one-time link: an invitation or a reset sets the person's password
 * (and makes an invited person active); the first owner's link creates the
 * first owner. Then signs them in.
 */
export async function signInWithLink(
  db: Db,
  body: { token: string; password: string; email?: string; name?: string },
  userAgent: string | null,
  settings: SessionSettings,
  now: Date,
): Promise<NewSession> {
  return write(db, commandLineWriteContext(now), async (change) => {
    const at = now.toISOString();
    const link = await useLink(change.trx, body.token, ['invitation', 'password_reset', 'first_owner'], at);
    if (!link)
      throw new AppError(
        'link_not_usable',
        'This link was used already, has expired, or was never issued: ask for a new one',
      );
    if (link.purpose === 'first_owner') {
      if (!body.email || !body.name)
        throw invalidField('body', body.email ? '/name' : '/email', 'is required for the first owner');
      checkPassword(body.password, body.email);
      if ((await countStaff(change.trx)) > 0)
        throw new AppError('link_not_usable', 'The first owner exists already: sign in');
      const passwordHash = await hashPassword(body.password);
      const id = await insertStaff(
        change.trx,
        { email: body.email, name: body.name, state: 'active', passwordHash },
        at,
      ).catch((error: unknown) => {
        throw isUniqueViolation(error)
          ? new AppError('staff_email_conflict', `${body.email} is taken`)
          : error;
      });
      await replaceRoles(change.trx, id, [{ facilityId: null, role: 'owner' }]);
      const created = (await findStaffById(change.trx, id))?.user;
      if (created)
        journalStaffChange(
          { ...change, context: signedInContext(created, now) },
          { action: 'create', before: null, after: created },
        );
      return startSession(change.trx, id, 'link', userAgent, settings, now);
    }
    const found =
      link.staffUserId === null
        ? undefined
        : await findStaffById(change.trx, link.staffUserId, { lock: true });
    if (!found || found.user.state === 'disabled')
      throw new AppError('link_not_usable', 'This link is for a person who may no longer sign in');
    checkPassword(body.password, found.user.email);
    await updateStaff(
      change.trx,
      found.user.id,
      { state: 'active', password_hash: await hashPassword(body.password), password_changed_at: at },
      at,
    );
    const after = { ...found.user, state: 'active' as const, has_password: true };
    journalStaffChange(
      { ...change, context: signedInContext(found.user, now) },
      { action: 'update', before: found.user, after },
    );
    return startSession(change.trx, found.user.id, 'link', userAgent, settings, now);
  });
}

function checkPassword(password: string, email: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw invalidField('body', '/password', problem);
}

/** A person's own change (their first password, their first sign-in): journaled as theirs. */
function signedInContext(user: { id: number; name: string }, now: Date): WriteContext {
  return { ...commandLineWriteContext(now), principal: staffPrincipal(user, [], 0) };
}

export async function signOutEverywhere(db: Executor, staffUserId: number): Promise<void> {
  await deleteSessionsOf(db, staffUserId);
}

export async function signOut(db: Executor, principal: Principal): Promise<void> {
  if (principal.sessionId !== null) await deleteSession(db, principal.sessionId);
}

/** The first owner's link, when no staff user exists: printed at start, or by `staff create-owner`. */
export async function firstOwnerLink(
  db: Executor,
  validMs: number,
  now: Date,
): Promise<{ secret: string; expiresAt: string } | undefined> {
  if ((await countStaff(db)) > 0) return undefined;
  const secret = newLinkSecret();
  const expiresAt = new Date(now.getTime() + validMs).toISOString();
  await insertLink(
    db,
    secret,
    { purpose: 'first_owner' as LinkPurpose, staffUserId: null, data: {}, expiresAt },
    now.toISOString(),
  );
  return { secret, expiresAt };
}
