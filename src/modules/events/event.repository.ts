import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { EventsTable } from '../../db/schema.js';

/**
 * Where a reader of a facility's feed stands: after the event `id`. A
 * facility's events are numbered in commit order on both engines
 * (src/journal/journal.repository.ts), so the last id read is the whole
 * position.
 */
export interface FeedPosition {
  id: number;
}

export const FEED_START: FeedPosition = { id: 0 };

/** An event as the feed reads it: `data` and `actor` are JSON text, sent as stored. */
export type EventRow = Selectable<EventsTable>;

export interface FeedFilter {
  facilityId: number;
  after: FeedPosition;
  types?: readonly string[];
  limit: number;
  /** The events' data together stay within this (one event at least). */
  maxBytes: number;
}

/**
 * The next events of a facility after a position, in feed order. Two reads:
 * positions and sizes first, then the data of those that fit.
 */
export async function readFeed(db: Executor, filter: FeedFilter): Promise<EventRow[]> {
  const positions = await db
    .selectFrom('events')
    .select(['id', sql<number>`octet_length(data)`.as('size')])
    .where('facility_id', '=', filter.facilityId)
    .where('id', '>', filter.after.id)
    .$if(filter.types !== undefined, (qb) => qb.where('type', 'in', filter.types as string[]))
    .orderBy('id')
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
    .select(['id', 'facility_id', 'type', 'resource', 'occurred_at', 'data', 'actor'])
    .where(
      'id',
      'in',
      chosen.map((row) => row.id),
    )
    .orderBy('id')
    .execute();
  return rows;
}

/** Facilities asked about in one statement at most; a list is padded to a power of two (few statement texts). */
const NEWEST_PER_STATEMENT = 256;

/**
 * The newest event id of each facility asked for (0 for none). A facility's
 * events commit in id order, so its newest id moves exactly when an event of
 * it commits: waiting readers look again only then. One index seek per
 * facility (max(id) of a facility_id prefix).
 */
export async function newestEventIds(
  db: Executor,
  facilityIds: readonly number[],
): Promise<Map<number, number>> {
  const newest = new Map<number, number>();
  for (let start = 0; start < facilityIds.length; start += NEWEST_PER_STATEMENT) {
    const part = facilityIds.slice(start, start + NEWEST_PER_STATEMENT);
    let size = 1;
    while (size < part.length) size *= 2;
    const padded = [...part, ...Array(size - part.length).fill(part[part.length - 1])];
    const row = await db
      .selectNoFrom((eb) =>
        padded.map((facilityId, index) =>
          eb
            .selectFrom('events')
            .select(sql<number>`max(id)`.as('newest'))
            .where('facility_id', '=', facilityId)
            .as(`f${index}`),
        ),
      )
      .executeTakeFirstOrThrow();
    const values = row as Record<string, number | null>;
    for (const [index, facilityId] of part.entries())
      newest.set(facilityId, Number(values[`f${index}`] ?? 0));
  }
  return newest;
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
