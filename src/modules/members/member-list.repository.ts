/**
 * The list of a facility's members: filters, keyset paging by id or by a
 * sort (member-list-sort.ts), and `q`, whose every word must be in the
 * member's folded text (search/member-search-text.ts), which a trigram index
 * serves in large facilities (migration 0041).
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { type Engine, engineOf } from '../../db/engine/engine.js';
import type { IndexQuery } from '../../db/engine/member-search.js';
import { type PageRead, type RowSizes, readPageRows, readsWhole } from '../../db/page-rows.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { MEMBER_COLUMNS, type MemberRecord } from './member.repository.js';
import { inSortOrder, type MemberSort, sortValueOf } from './member-list-sort.js';
import { chooseIndexQuery } from './search/member-search-plan.js';
import { queryWords } from './search/member-search-text.js';

export interface MemberFilter {
  sportId?: number;
  statuses?: string[];
  roles?: string[];
  planId?: number;
  q?: string;
  /** Another order than by id; `afterId` is then 0 and the sort says where the page starts. */
  sort?: MemberSort;
  afterId: number;
  limit: number;
  /** Rows of more than this many bytes are not read whole (readPageRows). */
  maxBytes: number;
}

const pageRead = ({ afterId, limit, maxBytes }: MemberFilter): PageRead => ({
  afterId,
  rows: limit,
  maxBytes,
});

/**
 * A member's JSON holds at least its longer texts, and 300 bytes for the
 * field names and the other values (a member with every field null takes
 * about 390). In memory a member takes at most 6 KiB: 2,486 characters of
 * text at 2 bytes each, and the rest.
 */
const MEMBER_SIZES: RowSizes = {
  jsonBytesAtLeast: sql<number>`300 + octet_length(first_name) + coalesce(octet_length(last_name), 0)
    + coalesce(octet_length(email), 0) + coalesce(octet_length(notes), 0)`,
  largestRowBytes: 6 * 1024,
};

/**
 * The engine's trigram index serves a term that is rare in a large
 * facility; a small facility, and a common term, whose page fills within a
 * few hundred members, are read in order, more cheaply than through the
 * index, which finds the term's members in every facility and whose cost the
 * planner underrates for common trigrams. A sample of the facility tells
 * which is which (search/member-search-plan.ts).
 */
export async function listMembers(
  db: Executor,
  facilityId: number,
  filter: MemberFilter,
): Promise<MemberRecord[]> {
  const words = filter.q === undefined ? [] : queryWords(filter.q);
  const index = await chooseIndexQuery(db, facilityId, words);
  if (filter.sort !== undefined) return listSorted(db, facilityId, filter, filter.sort, index);
  if (index === undefined) return scanMembers(db, facilityId, filter);
  return searchThroughIndex(db, facilityId, filter, index);
}

/** Rows of a sorted page read at once: what the largest rows take in 1 MiB (page-rows.ts's READ_WHOLE_BYTES). */
const SORTED_CHUNK = Math.floor((1024 * 1024) / (6 * 1024));

/**
 * A page in the sort's order, through the index when it serves `q`. A page
 * whose rows could take more than its budget is read a chunk at a time,
 * until it has its rows or more than its budget of JSON: the rows after
 * that would not be sent, and one more tells that another page follows.
 */
async function listSorted(
  db: Executor,
  facilityId: number,
  filter: MemberFilter,
  sort: MemberSort,
  index: IndexQuery | undefined,
): Promise<MemberRecord[]> {
  const engine = engineOf(db);
  const query = db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) =>
      passesFilter(eb, engine, facilityId, { ...filter, q: index === undefined ? filter.q : undefined }),
    )
    .$if(index !== undefined, (q) => q.where(engine.memberSearch.foundByIndex(index as IndexQuery, 0)));
  if (readsWhole(pageRead(filter), MEMBER_SIZES))
    return (await inSortOrder(query, sort, filter.limit).execute()) as MemberRecord[];
  const rows: MemberRecord[] = [];
  let bytes = 0;
  let after = sort.after;
  while (rows.length < filter.limit && bytes <= filter.maxBytes) {
    const wanted = Math.min(SORTED_CHUNK, filter.limit - rows.length);
    const chunk = (await inSortOrder(query, { ...sort, after }, wanted).execute()) as MemberRecord[];
    for (const row of chunk) bytes += Buffer.byteLength(JSON.stringify(row));
    rows.push(...chunk);
    if (chunk.length < wanted) break;
    const last = chunk[chunk.length - 1];
    after = { value: sortValueOf(last, sort.field), id: last.id };
  }
  return rows;
}

/**
 * A page of the facility's members with no filter, the list's usual read,
 * built and compiled once: Kysely's build of the query cost a page more than
 * its serialization (docs/performance-log.md).
 */
const unfilteredPage = prepareQuery<{ facilityId: number; afterId: number; limit: number }, MemberRecord>(
  (db, param) =>
    db
      .selectFrom('members')
      .select(MEMBER_COLUMNS)
      .where((eb) =>
        passesFilter(eb, engineOf(db), param('facilityId'), {
          afterId: param('afterId'),
          limit: 0,
          maxBytes: 0,
        }),
      )
      .orderBy('id')
      .limit(param('limit')),
);

const isUnfiltered = ({ sportId, statuses, roles, planId, q }: MemberFilter) =>
  sportId === undefined &&
  statuses === undefined &&
  roles === undefined &&
  planId === undefined &&
  q === undefined;

/** The facility's members in id order that pass the filter. */
async function scanMembers(db: Executor, facilityId: number, filter: MemberFilter) {
  if (isUnfiltered(filter) && readsWhole(pageRead(filter), MEMBER_SIZES))
    return unfilteredPage(db, { facilityId, afterId: filter.afterId, limit: filter.limit });
  const query = db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) => passesFilter(eb, engineOf(db), facilityId, filter))
    .orderBy('id')
    .limit(filter.limit);
  return (await readPageRows(query, pageRead(filter), MEMBER_SIZES)) as MemberRecord[];
}

/**
 * The members that the index finds for the query (MemberSearch.foundByIndex:
 * each checked against the whole term) and that pass the rest of the
 * filter. Planned per call: the best plan depends on the term.
 */
async function searchThroughIndex(db: Executor, facilityId: number, filter: MemberFilter, index: IndexQuery) {
  const engine = engineOf(db);
  const query = db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) => passesFilter(eb, engine, facilityId, { ...filter, q: undefined }))
    .where(engine.memberSearch.foundByIndex(index, filter.afterId))
    .orderBy('id')
    .limit(filter.limit);
  return (await readPageRows(query, pageRead(filter), MEMBER_SIZES, {
    plannedPerCall: true,
  })) as MemberRecord[];
}

function passesFilter(
  eb: ExpressionBuilder<DatabaseSchema, 'members'>,
  engine: Engine,
  facilityId: number,
  filter: MemberFilter,
): Expression<SqlBool> {
  const { statuses, roles, q } = filter;
  return eb.and([
    eb('facility_id', '=', facilityId),
    ...(filter.afterId === 0 ? [] : [eb('id', '>', filter.afterId)]),
    ...(filter.sportId === undefined ? [] : [eb('sport_id', '=', filter.sportId)]),
    ...(filter.planId === undefined ? [] : [eb('plan_id', '=', filter.planId)]),
    statuses === undefined ? eb('status', '<>', 'removed') : eb('status', 'in', statuses),
    ...(roles === undefined ? [] : [eb('role', 'in', roles)]),
    ...(q === undefined ? [] : queryWords(q).map((word) => engine.memberSearch.containsWord(word))),
  ]);
}
