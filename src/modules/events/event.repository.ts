import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type ParameterFunction, prepareQuery } from '../../db/prepared-query.js';

/**
 * Where a reader of the feed stands: after the event at (xid, id). On SQLite
 * xid is always 0 and id alone orders the feed; on PostgreSQL the feed is
 * ordered by the writing transaction's id, then id (migration 0020).
 */
export interface FeedPosition {
  xid: bigint;
  id: number;
}

export const FEED_START: FeedPosition = { xid: 0n, id: 0 };

export interface EventRow {
  id: number;
  xid: bigint;
  facility_id: number;
  type: string;
  resource: string;
  occurred_at: string;
  /** The JSON text of `data`, sent as it is stored. */
  data: string;
}

/** An event as it is inserted. */
export type EventValues = Omit<EventRow, 'id' | 'xid'>;

/** An event's columns, each from the prepared query's parameter of its name. */
export const eventColumns = (param: ParameterFunction<EventValues>) => ({
  facility_id: param('facility_id'),
  type: param('type'),
  resource: param('resource'),
  occurred_at: param('occurred_at'),
  data: param('data'),
});

/** Every write records its event: compiled once (prepareQuery). */
const insertEventQuery = prepareQuery<EventValues, { id: number }>((db, param) =>
  db.insertInto('events').values(eventColumns(param)).returning('id'),
);

/** Inserts the event and gives its id. */
export async function insertEvent(db: Executor, event: EventValues): Promise<number> {
  const [row] = await insertEventQuery(db, event);
  return Number(row.id);
}

export interface FeedFilter {
  facilityId: number;
  after: FeedPosition;
  types?: readonly string[];
  limit: number;
  /** The events' data together stay within this (one event at least). */
  maxBytes: number;
}

/**
 * The next events of a facility after a position, in feed order, only those
 * that can no longer be preceded by another: on PostgreSQL only events of
 * transactions below the oldest still running one (pg_snapshot_xmin), so an
 * event that commits late is never behind a position already handed out.
 * Two reads: positions and sizes first, then the data of those that fit.
 */
export async function readFeed(db: Executor, filter: FeedFilter): Promise<EventRow[]> {
  const postgres = dialectOf(db) === 'postgres';
  const positions = await db
    .selectFrom('events')
    .select(['id', sql<number>`octet_length(data)`.as('size')])
    .$if(postgres, (qb) => qb.select(sql<string>`xid::text`.as('xid')))
    .where('facility_id', '=', filter.facilityId)
    .$if(postgres, (qb) =>
      qb
        .where(sql<boolean>`(xid, id) > (${filter.after.xid.toString()}::xid8, ${filter.after.id})`)
        .where(sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`)
        .orderBy(sql`xid`)
        .orderBy('id'),
    )
    .$if(!postgres, (qb) => qb.where('id', '>', filter.after.id).orderBy('id'))
    .$if(filter.types !== undefined, (qb) => qb.where('type', 'in', filter.types as string[]))
    .limit(filter.limit)
    .execute();
  let bytes = 0;
  let count = 0;
  for (const row of positions) {
    if (count > 0 && bytes + Number(row.size) > filter.maxBytes) break;
    bytes += Number(row.size);
    count += 1;
  }
  const chosen = positions.slice(0, count);
  if (chosen.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .select(['id', 'facility_id', 'type', 'resource', 'occurred_at', 'data'])
    .where(
      'id',
      'in',
      chosen.map((row) => row.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return chosen.map((position) => {
    const row = byId.get(position.id) as (typeof rows)[number];
    const xid = (position as { xid?: string }).xid;
    return { ...row, xid: xid === undefined ? 0n : BigInt(xid) };
  });
}

/**
 * Something that changes whenever the feed may have grown: the newest id and,
 * on PostgreSQL, the horizon under which events are readable. Waiting readers
 * look again only when it changes.
 */
export async function feedVersion(db: Executor): Promise<string> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ version: string }>`select
      coalesce((select max(id) from events), 0)::text || '@' || pg_snapshot_xmin(pg_current_snapshot())::text
      as version`.execute(db);
    return rows[0].version;
  }
  const { rows } = await sql<{ version: number }>`select coalesce(max(id), 0) as version from events`.execute(
    db,
  );
  return String(rows[0].version);
}

/** Removes events that occurred before the cutoff, in batches so no transaction runs long. */
export async function pruneEventsBefore(db: Executor, cutoff: string, batch = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db
      .deleteFrom('events')
      .where('id', 'in', db.selectFrom('events').select('id').where('occurred_at', '<', cutoff).limit(batch))
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    removed += count;
    if (count < batch) return removed;
  }
}
