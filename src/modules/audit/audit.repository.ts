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

/** The facility id of the entries about the whole service (a key for every facility; api-key.audit.ts). */
const WHOLE_SERVICE = 0;

/**
 * A facility's trail: its own entries and those about the whole service (an
 * API key for every facility gives or takes access to this one too), in id
 * order. The two are read as two ranges of the (facility_id, id) index,
 * each limited to the page, and merged.
 */
export async function listAuditEvents(
  db: Executor,
  facilityId: number,
  filter: { resourceType?: string; resourceId?: string; action?: string; since?: string },
  page: PageRead,
): Promise<AuditEvent[]> {
  const trailOf = (facility: number) =>
    db
      .selectFrom('audit_events')
      .selectAll()
      .where('facility_id', '=', facility)
      .where('id', '>', page.afterId)
      .$if(filter.resourceType !== undefined, (qb) =>
        qb.where('resource_type', '=', filter.resourceType as string),
      )
      .$if(filter.resourceId !== undefined, (qb) => qb.where('resource_id', '=', filter.resourceId as string))
      .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action as string))
      .$if(filter.since !== undefined, (qb) => qb.where('occurred_at', '>=', filter.since as string))
      .orderBy('id')
      .limit(page.rows);
  const withWholeService = filter.resourceType === undefined || filter.resourceType === 'api_key';
  const query = withWholeService
    ? db
        .selectFrom(
          db
            .selectFrom(trailOf(facilityId).as('own'))
            .selectAll()
            .unionAll(
              db
                .selectFrom(trailOf(WHOLE_SERVICE).where('resource_type', '=', 'api_key').as('service'))
                .selectAll(),
            )
            .as('audit_events'),
        )
        .selectAll()
        .orderBy('id')
        .limit(page.rows)
    : trailOf(facilityId);
  return (await readPageRows(query, page, EVENT_SIZES)).map(toAuditEvent);
}
