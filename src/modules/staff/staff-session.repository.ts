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

export async function insertSession(
  db: Executor,
  secret: string,
  session: {
    staffUserId: number;
    method: 'password' | 'oidc' | 'link';
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

export async function deleteSessionsOf(db: Executor, staffUserId: number): Promise<number> {
  const result = await db
    .deleteFrom('staff_sessions')
    .where('staff_user_id', '=', staffUserId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteEndedSessions(db: Executor, idleBefore: string, now: string): Promise<number> {
  const result = await db
    .deleteFrom('staff_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
