/**
 * The list of a facility's members: filters, keyset paging, and `q`, which a
 * trigram index serves in large facilities (migration 0007 on PostgreSQL,
 * 0030 on SQLite).
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DialectName, Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type PageRead, type RowSizes, readPageRows, readsWhole } from '../../db/page-rows.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { MEMBER_COLUMNS, type MemberRecord } from './member.repository.js';
import { chooseIndexedParts, sampleOfFacility } from './search/member-search-sample.js';
import { chooseTrigrams, matchEvery, trustedTrigrams } from './search/member-search-sqlite.js';
import {
  containsGlob,
  containsPattern,
  type IndexedTerm,
  indexedTerm,
  SEARCHED_TEXT,
} from './search/member-search-term.js';

export interface MemberFilter {
  sportId?: number;
  statuses?: string[];
  roles?: string[];
  planId?: number;
  q?: string;
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
 * On PostgreSQL the trigram index serves a term that is rare in a large
 * facility; a small facility, and a common term, whose page fills within a
 * few hundred members, are read in order, more cheaply than through the
 * index, which finds the term's members in every facility and whose cost the
 * planner underrates for common trigrams. A sample of the facility tells
 * which is which (member-search-sample.ts). SQLite's FTS5 index is chosen
 * the same way (member-search-sqlite.ts).
 */
export async function listMembers(
  db: Executor,
  facilityId: number,
  filter: MemberFilter,
): Promise<MemberRecord[]> {
  if (filter.q !== undefined && dialectOf(db) === 'sqlite')
    return searchSqlite(db, facilityId, filter, filter.q);
  const indexed = filter.q === undefined ? undefined : indexedTerm(filter.q);
  if (indexed === undefined) return scanMembers(db, facilityId, filter);
  const chosen = chooseIndexedParts(await sampleOfFacility(db, facilityId), indexed);
  if (chosen === undefined) return scanMembers(db, facilityId, filter);
  return searchMembersByTrigrams(db, facilityId, filter, chosen);
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
        passesFilter(eb, dialectOf(db), param('facilityId'), {
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
    .where((eb) => passesFilter(eb, dialectOf(db), facilityId, filter))
    .orderBy('id')
    .limit(filter.limit);
  return (await readPageRows(query, pageRead(filter), MEMBER_SIZES)) as MemberRecord[];
}

/**
 * The members whose indexed text (migration 0007) contains the term, found
 * through pg_trgm's GIN index. The index is asked for the term's parts that
 * are rare in the facility (indexedParts, chooseIndexedParts), and the text
 * is checked for the whole term. The text is the three fields a line each,
 * and an indexable term has no line break, so the text contains the term
 * exactly when a field does (the email is stored lower-cased, as
 * email_folded, so its lower() is its own). A term that is one part is its
 * own index condition: a second check of it would count twice in the
 * planner's estimate.
 */
async function searchMembersByTrigrams(
  db: Executor,
  facilityId: number,
  filter: MemberFilter,
  { term, parts }: IndexedTerm,
) {
  const query = db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) => passesFilter(eb, 'postgres', facilityId, { ...filter, q: undefined }))
    .where((eb) =>
      eb.and(parts.map((part) => sql<boolean>`${SEARCHED_TEXT} like ${containsPattern(part)} escape '\\'`)),
    )
    // strpos, not LIKE: the index cannot serve it, so it stays a check of the rows the parts found.
    .$if(parts.length !== 1 || parts[0] !== term, (qb) =>
      qb.where(sql<boolean>`strpos(${SEARCHED_TEXT}, ${term}) > 0`),
    )
    .orderBy('id')
    .limit(filter.limit);
  return (await readPageRows(query, pageRead(filter), MEMBER_SIZES, {
    plannedPerCall: true,
  })) as MemberRecord[];
}

async function searchSqlite(db: Executor, facilityId: number, filter: MemberFilter, q: string) {
  const trigrams = trustedTrigrams(q);
  const chosen =
    trigrams.length === 0 ? undefined : chooseTrigrams(await sampleOfFacility(db, facilityId), q, trigrams);
  if (chosen === undefined) return scanMembers(db, facilityId, filter);
  return searchMembersByFts(db, facilityId, filter, chosen);
}

/**
 * The members that FTS5's index (migration 0030) finds with every chosen
 * trigram, each checked against the whole filter, `q` included: the index
 * narrows, the substring rule decides.
 */
async function searchMembersByFts(
  db: Executor,
  facilityId: number,
  filter: MemberFilter,
  trigrams: string[],
) {
  const query = db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where(
      sql<boolean>`id in (select rowid from member_search where member_search match ${matchEvery(trigrams)}
        and rowid > ${filter.afterId})`,
    )
    .where((eb) => passesFilter(eb, 'sqlite', facilityId, filter))
    .orderBy('id')
    .limit(filter.limit);
  return (await readPageRows(query, pageRead(filter), MEMBER_SIZES)) as MemberRecord[];
}

function passesFilter(
  eb: ExpressionBuilder<DatabaseSchema, 'members'>,
  dialect: DialectName,
  facilityId: number,
  filter: MemberFilter,
): Expression<SqlBool> {
  const { statuses, roles, q } = filter;
  return eb.and([
    eb('facility_id', '=', facilityId),
    eb('id', '>', filter.afterId),
    ...(filter.sportId === undefined ? [] : [eb('sport_id', '=', filter.sportId)]),
    ...(filter.planId === undefined ? [] : [eb('plan_id', '=', filter.planId)]),
    statuses === undefined ? eb('status', '<>', 'removed') : eb('status', 'in', statuses),
    ...(roles === undefined ? [] : [eb('role', 'in', roles)]),
    ...(q === undefined
      ? []
      : [eb.or(SEARCHED_COLUMNS.map((column) => containsIgnoringCase(dialect, column, q)))]),
  ]);
}

const SEARCHED_COLUMNS = ['first_name', 'last_name', 'email_folded'] as const;

/** `column` contains `text`, ignoring case, on either dialect. */
function containsIgnoringCase(dialect: DialectName, column: (typeof SEARCHED_COLUMNS)[number], text: string) {
  return dialect === 'postgres'
    ? sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ${containsGlob(text)}`;
}
