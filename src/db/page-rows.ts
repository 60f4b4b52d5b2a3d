import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { PLANNED_PER_CALL } from './engine/planned-per-call.js';

/**
 * What a list reads for a page: at most `rows` rows after `afterId`, in id
 * order. It may return fewer only at the end of the list, or once the rows it
 * returns hold more than `maxBytes` of text that their JSON contains
 * (readPageRows), so that a page of large rows is never read whole.
 */
export interface PageRead {
  afterId: number;
  rows: number;
  maxBytes: number;
}

/** What a list knows of the size of its rows. */
export interface RowSizes {
  /**
   * SQL for bytes that a row's JSON holds at least (its long texts, plus a
   * floor for the rest): a page cut at these bytes is over its budget when
   * serialized too (src/http/replies/page-reply.ts), and so says that more rows follow.
   */
  jsonBytesAtLeast: RawBuilder<number>;
  /** What one row can take in memory at most, from the schema's limits. */
  largestRowBytes: number;
}

/** Rows that take at most this much in memory are read whole, whatever the page's budget. */
const READ_WHOLE_BYTES = 1024 * 1024;

/** Whether a page's rows are read in one pass: their most in memory is within the page's budget or 1 MiB. */
export function readsWhole(read: PageRead, sizes: RowSizes): boolean {
  return read.rows * sizes.largestRowBytes <= Math.max(read.maxBytes, READ_WHOLE_BYTES);
}

/**
 * The rows of a page query (ordered by id, limited to `read.rows`). When
 * that many rows could take more than `read.maxBytes` (or 1 MiB), the
 * database stops at the budget: a first pass over the same rows reads only
 * their ids and sizes (`jsonBytesAtLeast`, whose long texts SQLite and
 * PostgreSQL measure without reading them) and finds the first row whose
 * preceding rows hold `maxBytes`; the rows up to the one after it are read.
 * A page of 1,000 audit events of 600 kB each is thus never read whole into
 * memory, nor read at all past its budget; a default page of 100 members, at
 * most 0.6 MB, is read in one pass. On PostgreSQL, `plannedPerCall` plans
 * the query on every call (PLANNED_PER_CALL).
 */
export async function readPageRows<R>(
  // biome-ignore lint/suspicious/noExplicitAny: any table's page query
  query: SelectQueryBuilder<any, any, R>,
  read: PageRead,
  sizes: RowSizes,
  options: { plannedPerCall?: boolean } = {},
): Promise<R[]> {
  const whole = readsWhole(read, sizes);
  const sized = query.clearSelect().select([sql<number>`id`.as('id'), sizes.jsonBytesAtLeast.as('size')]);
  const lastId = sql<number>`coalesce((select max(id) from (select id, coalesce(sum(size) over (
    order by id rows between unbounded preceding and 2 preceding), 0) as bytes_before from ${sized} as sized) as cut
    where bytes_before < ${read.maxBytes}), ${read.afterId})`;
  const page = whole ? query : query.where('id', '<=', lastId);
  return (options.plannedPerCall ? page.modifyEnd(PLANNED_PER_CALL) : page).execute();
}
