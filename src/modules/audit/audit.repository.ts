import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { type PageRead, type RowSizes, readPageRows } from '../../db/page-rows.js';
import type { AuditEventsTable } from '../../db/schema.js';
import type { AuditEvent } from './audit.schemas.js';

function toAuditEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return { ...row, changes: JSON.parse(row.changes) } as AuditEvent;
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
