import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { WebhookDeliveriesTable } from '../../db/schema.js';
import type { WebhookDelivery } from './webhook.schemas.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    webhook_id: row.message_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_attempt_at: row.last_attempt_at,
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    created_at: row.created_at,
  };
}

export type NewDelivery = Pick<
  DeliveryRow,
  | 'endpoint_id'
  | 'event_id'
  | 'message_id'
  | 'type'
  | 'resource'
  | 'payload'
  | 'next_attempt_at'
  | 'created_at'
>;

export async function insertDeliveries(db: Executor, deliveries: NewDelivery[]): Promise<DeliveryRow[]> {
  if (deliveries.length === 0) return [];
  return db
    .insertInto('webhook_deliveries')
    .values(deliveries.map((delivery) => ({ ...delivery, status: 'pending' as const })))
    .returningAll()
    .execute();
}

/**
 * Takes up to `limit` due deliveries for this process until `lockedUntil`
 * (a lease: a process that dies while sending leaves them to be taken again
 * once it ends) and counts the attempt. A delivery waits while an earlier one
 * of its endpoint and resource is still pending, so that one resource's
 * events arrive in order. On PostgreSQL rows another instance is taking are
 * skipped (FOR UPDATE SKIP LOCKED); on SQLite the single writer serializes.
 */
export async function claimDueDeliveries(
  db: Executor,
  now: string,
  lockedUntil: string,
  limit: number,
): Promise<DeliveryRow[]> {
  const postgres = dialectOf(db) === 'postgres';
  const due = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', now)]))
    .where('e.enabled', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as earlier')
            .select(sql`1`.as('one'))
            .whereRef('earlier.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('earlier.resource', '=', 'd.resource')
            .whereRef('earlier.id', '<', 'd.id')
            .where('earlier.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .limit(limit)
    .$if(postgres, (qb) => qb.forUpdate('d').skipLocked());
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1), last_attempt_at: now }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

export async function finishAttempt(
  db: Executor,
  deliveryId: number,
  outcome: Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'last_response_status' | 'last_error'>,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ ...outcome, locked_until: null })
    .where('id', '=', deliveryId)
    .execute();
}

export async function findDelivery(
  db: Executor,
  endpointId: number,
  deliveryId: number,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

export async function listDeliveries(
  db: Executor,
  endpointId: number,
  page: { afterId: number; rows: number },
): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('id', '>', page.afterId)
    .orderBy('id')
    .limit(page.rows)
    .execute();
}

export async function scheduleNow(db: Executor, deliveryId: number, now: string): Promise<DeliveryRow> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now })
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes finished deliveries (succeeded or failed) created before the cutoff; pending ones stay. */
export async function pruneFinishedDeliveriesBefore(
  db: Executor,
  cutoff: string,
  batch = 5000,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db
      .deleteFrom('webhook_deliveries')
      .where(
        'id',
        'in',
        db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '!=', 'pending')
          .where('created_at', '<', cutoff)
          .limit(batch),
      )
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    removed += count;
    if (count < batch) return removed;
  }
}
