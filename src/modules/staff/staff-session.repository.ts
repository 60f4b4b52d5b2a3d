import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../../db/database.js';

/** A session's secret: 32 random bytes in the cookie; only its SHA-256 is stored. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hashSessionSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface StoredSession {
  id: number;
  staffUserId: number;
  lastSeenAt: string;
  expiresAt: string;
}

export type SignInMethod = 'password' | 'oidc' | 'link';

/** A session as its person sees it in their list: never its secret nor the secret's hash. */
export interface ListedSession {
  id: number;
  method: SignInMethod;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export async function insertSession(
  db: Executor,
  secret: string,
  session: {
    staffUserId: number;
    method: SignInMethod;
    userAgent: string | null;
    expiresAt: string;
  },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('staff_sessions')
    .values({
      secret_hash: hashSessionSecret(secret),
      staff_user_id: session.staffUserId,
      method: session.method,
      user_agent: session.userAgent?.slice(0, 200) ?? null,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The session of a cookie's secret, if it has not ended (by its absolute lifetime). */
export async function findSessionBySecret(
  db: Executor,
  secret: string,
  now: string,
): Promise<StoredSession | undefined> {
  const row = await db
    .selectFrom('staff_sessions')
    .select(['id', 'staff_user_id', 'last_seen_at', 'expires_at'])
    .where('secret_hash', '=', hashSessionSecret(secret))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return (
    row && {
      id: Number(row.id),
      staffUserId: Number(row.staff_user_id),
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
    }
  );
}

export async function touchSession(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('staff_sessions').where('id', '=', id).execute();
}

/** Ends every session of a person (but the one `except` names). */
export async function deleteSessionsOf(
  db: Executor,
  staffUserId: number,
  except: number | null = null,
): Promise<number> {
  let query = db.deleteFrom('staff_sessions').where('staff_user_id', '=', staffUserId);
  if (except !== null) query = query.where('id', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends one session of a person; false when they have none of that id. */
export async function deleteSessionOf(db: Executor, staffUserId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('staff_sessions')
    .where('staff_user_id', '=', staffUserId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A person's sessions that have not ended (idle since `idleBefore`, or past their lifetime), newest first. */
export async function listSessionsOf(
  db: Executor,
  staffUserId: number,
  ended: { idleBefore: string; now: string },
  limit: number,
): Promise<ListedSession[]> {
  const rows = await db
    .selectFrom('staff_sessions')
    .select(LISTED)
    .where('staff_user_id', '=', staffUserId)
    .where('expires_at', '>', ended.now)
    .where('last_seen_at', '>', ended.idleBefore)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(listedSession);
}

export async function findSessionById(db: Executor, id: number): Promise<ListedSession | undefined> {
  const row = await db.selectFrom('staff_sessions').select(LISTED).where('id', '=', id).executeTakeFirst();
  return row && listedSession(row);
}

const LISTED = ['id', 'method', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'] as const;

function listedSession(row: {
  id: number;
  method: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}): ListedSession {
  return {
    id: Number(row.id),
    method: row.method as SignInMethod,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function deleteEndedSessions(db: Executor, idleBefore: string, now: string): Promise<number> {
  const result = await db
    .deleteFrom('staff_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
