import { type Selectable, sql } from 'kysely';
import { actorOfRow } from '../../core/principal.js';
import type { Executor } from '../../db/database.js';
import { type PageRead, type RowSizes, readPageRows } from '../../db/page-rows.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { AuditEventsTable } from '../../db/schema.js';
import type { AuditEvent } from './audit.schemas.js';

function toAuditEvent(row: Row): AuditEvent {
  const { staff_user_id: _, ...rest } = row;
  return { ...rest, actor: actorOfRow(row), changes: JSON.parse(row.changes) } as AuditEvent;
}

/** What an event's JSON holds at least, besides its changes (EVENT_SIZES, and `readWholly` below). */
const EVENT_FLOOR_BYTES = 150;

/**
 * An event's JSON holds at least its changes, stored as the JSON text that
 * is sent, and 150 bytes for the rest. The largest is a plan's 100
 * entitlements replaced, each value 500 characters written 6 bytes wide
 * (\u0001) before and after: about 600 kB of text.
 */
const EVENT_SIZES: RowSizes = {
  jsonBytesAtLeast: sql<number>`${sql.lit(EVENT_FLOOR_BYTES)} + octet_length(changes)`,
  largestRowBytes: 640 * 1024,
};

/** The facility id of the entries about the whole service (a key for every facility; api-key.audit.ts). */
const WHOLE_SERVICE = 0;
/** What the whole service's entries are about: keys and people with a role for every facility. */
const WHOLE_SERVICE_TYPES = ['api_key', 'staff_user'];

type Filter = { resourceType?: string; resourceId?: string; action?: string; since?: string };
type Row = Selectable<AuditEventsTable>;

/** The first whole-service entry after a cursor, whatever the filters: most pages have none to merge. */
const firstWholeServiceEntry = prepareQuery<{ afterId: number }, { id: number }>((db, param) =>
  db
    .selectFrom('audit_events')
    .select('id')
    .where('facility_id', '=', WHOLE_SERVICE)
    .where('id', '>', param('afterId'))
    .orderBy('id')
    .limit(1),
);

/**
 * A facility's trail: its own entries and those about the whole service (an
 * API key for every facility gives or takes access to this one too), in id
 * order. Each is a page read of its range of the (facility_id, id) index,
 * merged here (mergeReads); as one SQL union, the page's byte budget was
 * computed over both twice, and a page took several times as long on SQLite
 * (docs/performance-log.md).
 * A prepared probe, run beside the facility's read, finds the first
 * whole-service entry after the cursor; that range is read only when the
 * entry falls within the page: in most deployments there are a few, with low
 * ids (the first admin key), so most pages cost the probe more, no second read.
 */
export async function listAuditEvents(
  db: Executor,
  facilityId: number,
  filter: Filter,
  page: PageRead,
): Promise<AuditEvent[]> {
  const own = readPageRows(trailQuery(db, facilityId, filter, page), page, EVENT_SIZES);
  if (filter.resourceType !== undefined && !WHOLE_SERVICE_TYPES.includes(filter.resourceType))
    return (await own).map(toAuditEvent);
  const [ownRows, [first]] = await Promise.all([own, firstWholeServiceEntry(db, { afterId: page.afterId })]);
  if (first === undefined || Number(first.id) > lastKnownId(ownRows, page)) return ownRows.map(toAuditEvent);
  const serviceQuery = trailQuery(db, WHOLE_SERVICE, filter, page).where(
    'resource_type',
    'in',
    WHOLE_SERVICE_TYPES,
  );
  const serviceRows = await readPageRows(serviceQuery, page, EVENT_SIZES);
  return mergeReads(ownRows, serviceRows, page).map(toAuditEvent);
}

function trailQuery(db: Executor, facilityId: number, filter: Filter, page: PageRead) {
  return db
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
}

/**
 * Two page reads in id order, merged: only as far as both are known. A read
 * that may have stopped before the end of its range (it holds `rows` rows,
 * or its rows reach the byte budget, where readPageRows stops) knows its
 * range only up to its last id, so the other's rows past that id wait for
 * the next page. The page then still says that more follow: a full read
 * gives the merge more rows than the page takes, and rows that reach the
 * budget by their least size are over it when serialized (RowSizes).
 */
function mergeReads(a: Row[], b: Row[], page: PageRead): Row[] {
  if (b.length === 0) return a;
  const knownUpTo = Math.min(lastKnownId(a, page), lastKnownId(b, page));
  return [...a, ...b]
    .filter((row) => row.id <= knownUpTo)
    .sort((x, y) => x.id - y.id)
    .slice(0, page.rows);
}

function lastKnownId(rows: Row[], page: PageRead): number {
  return readWholly(rows, page) ? Number.POSITIVE_INFINITY : rows[rows.length - 1].id;
}

/** Whether a read reached the end of its range: fewer rows than asked, and less than the budget by least size. */
function readWholly(rows: Row[], page: PageRead): boolean {
  if (rows.length >= page.rows) return false;
  let bytes = 0;
  for (const row of rows) bytes += EVENT_FLOOR_BYTES + Buffer.byteLength(row.changes);
  return bytes < page.maxBytes;
}
