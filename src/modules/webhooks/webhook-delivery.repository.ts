import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
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

export type NewDelivery = Omit<Insertable<WebhookDeliveriesTable>, 'id' | 'locked_until'>;

export async function insertDelivery(db: Executor, delivery: NewDelivery): Promise<DeliveryRow> {
  return db.insertInto('webhook_deliveries').values(delivery).returningAll().executeTakeFirstOrThrow();
}

/** A pending delivery that is due and has no earlier pending delivery of its resource before it. */
const isFirstOfItsResource = sql<boolean>`not exists (
  select 1 from webhook_deliveries earlier
  where earlier.endpoint_id = webhook_deliveries.endpoint_id
    and earlier.resource = webhook_deliveries.resource
    and earlier.status = 'pending'
    and earlier.id < webhook_deliveries.id)`;

/** A due delivery with its event's stored message, when it delivers an event that is still kept. */
export type DueDelivery = DeliveryRow & {
  event_data: string | null;
  event_occurred_at: string | null;
  event_actor: string | null;
  event_facility_id: number | null;
};

/**
 * The endpoint's pending deliveries that are due, oldest first, with the
 * message of each (a ping's own payload, or the event it delivers). A
 * delivery waits while an earlier one of its resource is pending, so that
 * one resource's events arrive in order.
 */
export async function findDueDeliveries(
  db: Executor,
  endpointId: number,
  now: string,
  limit: number,
): Promise<DueDelivery[]> {
  return db
    .selectFrom('webhook_deliveries')
    .leftJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select([
      'events.data as event_data',
      'events.occurred_at as event_occurred_at',
      'events.actor as event_actor',
      'events.facility_id as event_facility_id',
    ])
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_deliveries.next_attempt_at', '<=', now)
    .where(isFirstOfItsResource)
    .orderBy('webhook_deliveries.id')
    .limit(limit)
    .execute();
}

/** The resources that have a pending delivery to the endpoint: their later events wait behind it. */
export async function pendingResourcesOf(db: Executor, endpointId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('resource')
    .distinct()
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  return new Set(rows.map((row) => row.resource));
}

export async function finishAttempt(
  db: Executor,
  deliveryId: number,
  outcome: Pick<
    DeliveryRow,
    'status' | 'attempts' | 'next_attempt_at' | 'last_attempt_at' | 'last_response_status' | 'last_error'
  >,
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(outcome).where('id', '=', deliveryId).execute();
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

/** Pending test pings of the endpoint. */
export async function countPendingPings(db: Executor, endpointId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .where('type', '=', 'ping')
    .executeTakeFirstOrThrow();
  return Number(row.count);
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
