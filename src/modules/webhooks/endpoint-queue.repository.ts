import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { EventsTable } from '../../db/schema.js';
import type { EndpointRow } from './webhook-endpoint.repository.js';

/** An event as an endpoint's queue reads it from the journal. */
export type QueuedEvent = Selectable<EventsTable>;

/**
 * Enabled endpoints that have work and that no process serves now: events
 * after their cursor (unless failures in a row hold new events back), or a
 * pending delivery that is due and first of its resource. The least
 * recently served come first, so every endpoint gets its turn.
 */
export async function findEndpointsWithWork(
  db: Executor,
  now: string,
  failuresThatHoldNewEvents: number,
  limit: number,
): Promise<Pick<EndpointRow, 'id' | 'facility_id'>[]> {
  return db
    .selectFrom('webhook_endpoints as e')
    .select(['e.id', 'e.facility_id'])
    .where('e.enabled', '=', 1)
    .where((eb) => eb.or([eb('e.locked_until', 'is', null), eb('e.locked_until', '<', now)]))
    .where(
      (eb) => sql<boolean>`(
        (${eb.ref('e.consecutive_failures')} < ${failuresThatHoldNewEvents} and exists (
          select 1 from events where events.facility_id = e.facility_id and events.id > e.cursor))
        or exists (
          select 1 from webhook_deliveries d
          where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= ${now}
            and not exists (select 1 from webhook_deliveries earlier
              where earlier.endpoint_id = d.endpoint_id and earlier.resource = d.resource
                and earlier.status = 'pending' and earlier.id < d.id)))`,
    )
    .orderBy('e.last_served_at', (ob) => ob.asc().nullsFirst())
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** Takes the endpoint for this process until `leaseUntil`, unless another process serves it. */
export async function claimEndpoint(
  db: Executor,
  endpointId: number,
  now: string,
  leaseUntil: string,
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ locked_until: leaseUntil, last_served_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** The facility's next events after the endpoint's cursor, in feed order. */
export async function eventsAfter(
  db: Executor,
  facilityId: number,
  cursor: number,
  limit: number,
): Promise<QueuedEvent[]> {
  return db
    .selectFrom('events')
    .select(['id', 'facility_id', 'type', 'resource', 'occurred_at', 'data', 'actor'])
    .where('facility_id', '=', facilityId)
    .where('id', '>', cursor)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The facility's newest event id (0 for none): a new or re-enabled endpoint starts after it. */
export async function newestEventIdOf(db: Executor, facilityId: number): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select(sql<number | null>`max(id)`.as('newest'))
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return Number(row?.newest ?? 0);
}
