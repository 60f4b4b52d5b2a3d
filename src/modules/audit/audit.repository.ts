import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type PageRead, type RowSizes, readPageRows } from '../../db/page-rows.js';
import { type ParameterFunction, prepareQuery } from '../../db/prepared-query.js';
import type { AuditEventsTable } from '../../db/schema.js';
import { type EventValues, eventColumns, insertEvent } from '../events/event.repository.js';
import { enabledEndpointsOf } from '../webhooks/webhook-endpoint.repository.js';
import type { AuditEvent } from './audit.schemas.js';

function toAuditEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return { ...row, changes: JSON.parse(row.changes) } as AuditEvent;
}

type AuditEventValues = Required<Omit<Insertable<AuditEventsTable>, 'id'>>;

/** An audit entry's columns, each from the prepared query's parameter of its name. */
const auditEventColumns = (param: ParameterFunction<AuditEventValues>) => ({
  facility_id: param('facility_id'),
  resource_type: param('resource_type'),
  resource_id: param('resource_id'),
  action: param('action'),
  api_key_id: param('api_key_id'),
  api_key_name: param('api_key_name'),
  changes: param('changes'),
  request_id: param('request_id'),
  occurred_at: param('occurred_at'),
});

/** Every write records one event: compiled once (prepareQuery). */
const insertAuditEventQuery = prepareQuery<AuditEventValues, never>((db, param) =>
  db.insertInto('audit_events').values(auditEventColumns(param)),
);

export async function insertAuditEvent(db: Executor, event: AuditEventValues): Promise<void> {
  await insertAuditEventQuery(db, event);
}

type TrailValues = AuditEventValues & Pick<EventValues, 'type' | 'resource' | 'data'>;
type EndpointToNotify = { id: number; types: string };

/**
 * The audit entry and the event of one write, and the facility's enabled
 * webhook endpoints, in one statement on PostgreSQL (two data-modifying
 * CTEs): one round trip of the write's transaction instead of three. The
 * endpoints read are those committed when the statement runs, as with a
 * select of its own.
 */
const trailQuery = prepareQuery<
  TrailValues,
  { event_id: number; endpoint_id: number | null; endpoint_types: string | null }
>((db, param) =>
  db
    .with('audit', (qb) => qb.insertInto('audit_events').values(auditEventColumns(param)).returning('id'))
    .with('event', (qb) => qb.insertInto('events').values(eventColumns(param)).returning('id'))
    .selectFrom('event')
    .leftJoin('webhook_endpoints', (join) =>
      join
        .on('webhook_endpoints.facility_id', '=', param('facility_id'))
        .on('webhook_endpoints.enabled', '=', 1),
    )
    .select([
      'event.id as event_id',
      'webhook_endpoints.id as endpoint_id',
      'webhook_endpoints.types as endpoint_types',
    ]),
);

/**
 * Records a write's audit entry and its event, and gives the event's id and
 * the facility's enabled webhook endpoints (to queue its deliveries). One
 * statement on PostgreSQL; three on SQLite, which has no data-modifying CTEs
 * and no round trips to save.
 */
export async function insertAuditEventWithEvent(
  db: Executor,
  audit: AuditEventValues,
  event: EventValues,
): Promise<{ eventId: number; endpoints: EndpointToNotify[] }> {
  if (dialectOf(db) === 'sqlite') {
    await insertAuditEventQuery(db, audit);
    const eventId = await insertEvent(db, event);
    return { eventId, endpoints: await enabledEndpointsOf(db, event.facility_id) };
  }
  const rows = await trailQuery(db, {
    ...audit,
    type: event.type,
    resource: event.resource,
    data: event.data,
  });
  const endpoints: EndpointToNotify[] = [];
  for (const row of rows) {
    if (row.endpoint_id !== null)
      endpoints.push({ id: row.endpoint_id, types: row.endpoint_types as string });
  }
  return { eventId: Number(rows[0].event_id), endpoints };
}

/**
 * An event's JSON holds at least its changes, stored as the JSON text that
 * is sent, and 150 bytes for the rest. The largest is a plan's 100
 * entitlements replaced, each value 500 characters written 6 bytes wide
 * (\u0001) before and after: about 600 kB of text.
 */
const EVENT_SIZES: RowSizes = {
  jsonBytesAtLeast: sql<number>`150 + octet_length(changes)`,
  largestRowBytes: 640 * 1024,
};

export async function listAuditEvents(
  db: Executor,
  facilityId: number,
  filter: { resourceType?: string; resourceId?: string; action?: string; since?: string },
  page: PageRead,
): Promise<AuditEvent[]> {
  const query = db
    .selectFrom('audit_events')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '>', page.afterId)
    .$if(filter.resourceType !== undefined, (qb) =>
      qb.where('resource_type', '=', filter.resourceType as string),
    )
    .$if(filter.resourceId !== undefined, (qb) => qb.where('resource_id', '=', filter.resourceId as string))
    .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action as string))
    .$if(filter.since !== undefined, (qb) => qb.where('occurred_at', '>=', filter.since as string))
    .orderBy('id')
    .limit(page.rows);
  return (await readPageRows(query, page, EVENT_SIZES)).map(toAuditEvent);
}
