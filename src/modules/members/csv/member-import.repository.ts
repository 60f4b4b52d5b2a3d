import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { engineOf } from '../../../db/engine/engine.js';
import { type PageRead, type RowSizes, readPageRows } from '../../../db/page-rows.js';
import type { MemberImportsTable } from '../../../db/schema.js';

export type ImportRow = Selectable<MemberImportsTable>;
type NewImport = Pick<
  Insertable<MemberImportsTable>,
  | 'facility_id'
  | 'dry_run'
  | 'match_by'
  | 'on_error'
  | 'api_key_id'
  | 'staff_user_id'
  | 'api_key_name'
  | 'request_id'
  | 'created_at'
  | 'lease_token'
  | 'locked_until'
>;
/** The lease a process holds on a job: its claim's token, until when. */
export interface Lease {
  id: number;
  token: string;
  until: string;
}

/** States of a job that is not finished: at most one per facility (the partial unique index). */
export const UNFINISHED_STATES = ['receiving', 'queued', 'running'] as const;

/** A job for an upload about to be received; a unique violation when the facility has an unfinished one. */
export async function insertReceivingImport(db: Executor, values: NewImport): Promise<number> {
  const row = await db
    .insertInto('member_imports')
    .values({ ...values, state: 'receiving' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findUnfinishedImport(db: Executor, facilityId: number) {
  return db
    .selectFrom('member_imports')
    .select(['id', 'state', 'locked_until'])
    .where('facility_id', '=', facilityId)
    .where('state', 'in', UNFINISHED_STATES)
    .executeTakeFirst();
}

/** Makes a received upload a queued job, while the upload's lease is still this request's. */
export async function queueUpload(
  db: Executor,
  lease: Lease,
  upload: { rows_total: number; bytes: number },
): Promise<ImportRow | undefined> {
  return db
    .updateTable('member_imports')
    .set({ ...upload, state: 'queued', lease_token: null, locked_until: null })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.token)
    .where('state', '=', 'receiving')
    .returningAll()
    .executeTakeFirst();
}

/** Jobs waiting to run, and uploads under way, in every process. */
export async function countWaitingImports(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('member_imports')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('state', 'in', ['receiving', 'queued'])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function deleteImport(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('member_imports').where('id', '=', id).execute();
}

/**
 * Changes a job while `lease` is still its lease, and renews it: false when
 * another process took the job over (its lease had ended), or it is gone.
 */
export async function updateLeasedImport(
  db: Executor,
  lease: Lease,
  changes: Updateable<MemberImportsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('member_imports')
    .set({ locked_until: lease.until, ...changes })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the oldest job that is queued, or running under a lease that ended
 * (its process died), for this process until `lease.until`, and counts the
 * attempt. On PostgreSQL a job another process is taking is skipped (FOR
 * UPDATE SKIP LOCKED); on SQLite the single writer serializes.
 */
export async function claimImport(
  db: Executor,
  now: string,
  lease: Omit<Lease, 'id'>,
): Promise<ImportRow | undefined> {
  const claimable = db
    .selectFrom('member_imports')
    .select('id')
    .where('state', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .orderBy('id')
    .limit(1);
  return db
    .updateTable('member_imports')
    .set((eb) => ({
      state: 'running',
      lease_token: lease.token,
      locked_until: lease.until,
      started_at: eb.fn.coalesce('started_at', eb.val(now)),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', engineOf(db).locksRows ? claimable.forUpdate().skipLocked() : claimable)
    .where('state', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

/** One job of the facility as clients see it: an upload under way is not one yet. */
export async function findImport(
  db: Executor,
  facilityId: number,
  id: number,
): Promise<ImportRow | undefined> {
  return db
    .selectFrom('member_imports')
    .selectAll()
    .where('id', '=', id)
    .where('facility_id', '=', facilityId)
    .where('state', '!=', 'receiving')
    .executeTakeFirst();
}

/**
 * A job's JSON holds its report, stored as the text that is sent, and 300
 * bytes for the rest. A report lists at most 1,000 row errors, each at most
 * about 600 bytes (an email of 254 characters in its message): 600 kB.
 */
const IMPORT_SIZES: RowSizes = {
  jsonBytesAtLeast: sql<number>`300 + coalesce(octet_length(report), 0)`,
  largestRowBytes: 640 * 1024,
};

/** A page of the facility's jobs; the errors listed so far are left out (a running job shows its progress). */
export async function listImports(db: Executor, facilityId: number, page: PageRead): Promise<ImportRow[]> {
  const query = db
    .selectFrom('member_imports')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('state', '!=', 'receiving')
    .where('id', '>', page.afterId)
    .orderBy('id')
    .limit(page.rows);
  return readPageRows(query, page, IMPORT_SIZES);
}

/**
 * Finished jobs past their `expires_at`, or that ended before `finishedBefore`:
 * gone with their chunks and writes (ON DELETE CASCADE).
 */
export async function deleteExpiredImports(
  db: Executor,
  now: string,
  finishedBefore: string,
): Promise<number> {
  const result = await db
    .deleteFrom('member_imports')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('finished_at', '<', finishedBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Uploads whose receiving process stopped renewing their lease: they never became jobs. */
export async function deleteAbandonedUploads(db: Executor, now: string): Promise<number> {
  const result = await db
    .deleteFrom('member_imports')
    .where('state', '=', 'receiving')
    .where('locked_until', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
