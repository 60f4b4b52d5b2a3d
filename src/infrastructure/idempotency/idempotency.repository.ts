import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { IdempotencyKeysTable } from '../../db/schema.js';

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

/** Claims the key for a new request; false when a record for it already exists. */
export async function claimIdempotencyKey(
  db: Executor,
  record: { scope: string; key: string; requestHash: string; now: string },
): Promise<boolean> {
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        scope: record.scope,
        idempotency_key: record.key,
        request_hash: record.requestHash,
        created_at: record.now,
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function findIdempotencyRecord(db: Executor, scope: string, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Takes over a stale record (expired, or abandoned in flight) only if nobody else did first. */
export async function reclaimIdempotencyKey(
  db: Executor,
  stale: IdempotencyRecord,
  record: { requestHash: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      request_hash: record.requestHash,
      created_at: record.now,
      response_status: null,
      response_body: null,
      response_location: null,
      response_etag: null,
      completed_at: null,
    })
    .where('scope', '=', stale.scope)
    .where('idempotency_key', '=', stale.idempotency_key)
    .where('created_at', '=', stale.created_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function completeIdempotencyKey(
  db: Executor,
  scope: string,
  key: string,
  response: { status: number; body: string; location: string | null; etag: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      response_status: response.status,
      response_body: response.body,
      response_location: response.location,
      response_etag: response.etag,
      completed_at: response.now,
    })
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .execute();
}

export async function releaseIdempotencyKey(db: Executor, scope: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .execute();
}

export async function purgeIdempotencyKeysBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
