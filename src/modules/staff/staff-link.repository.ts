import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../../db/database.js';

export type LinkPurpose = 'invitation' | 'password_reset' | 'first_owner' | 'oidc_sign_in';

export interface StoredLink {
  purpose: LinkPurpose;
  staffUserId: number | null;
  data: Record<string, string>;
  expiresAt: string;
}

/** 32 random bytes: a link cannot be guessed, so its SHA-256 is enough to store it safely. */
export function newLinkSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashLinkSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Ends a person's unused links of a purpose (a reset link asked for before the password changed). */
export async function deleteUnusedLinksOf(
  db: Executor,
  staffUserId: number,
  purpose: LinkPurpose,
): Promise<void> {
  await db
    .deleteFrom('staff_links')
    .where('staff_user_id', '=', staffUserId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Stores a one-time link; a person's earlier unused links of the same purpose stop working. */
export async function insertLink(db: Executor, secret: string, link: StoredLink, now: string): Promise<void> {
  if (link.staffUserId !== null) await deleteUnusedLinksOf(db, link.staffUserId, link.purpose);
  await db
    .insertInto('staff_links')
    .values({
      secret_hash: hashLinkSecret(secret),
      purpose: link.purpose,
      staff_user_id: link.staffUserId,
      data: JSON.stringify(link.data),
      created_at: now,
      expires_at: link.expiresAt,
    })
    .execute();
}

/**
 * Uses a link once: marks it used and answers what it was for, or undefined
 * when it is unknown, used, expired or of another purpose. The update is
 * the check, so two uses at once cannot both succeed.
 */
export async function useLink(
  db: Executor,
  secret: string,
  purposes: readonly LinkPurpose[],
  now: string,
): Promise<StoredLink | undefined> {
  const row = await db
    .updateTable('staff_links')
    .set({ used_at: now })
    .where('secret_hash', '=', hashLinkSecret(secret))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    purpose: row.purpose as LinkPurpose,
    staffUserId: row.staff_user_id === null ? null : Number(row.staff_user_id),
    data: row.data === null ? {} : JSON.parse(row.data),
    expiresAt: row.expires_at,
  };
}

/** Links used or expired a day ago are of no use to anyone: the prune job deletes them. */
export async function deleteOldLinks(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('staff_links')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('used_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
