/**
 * The list of a facility's members: filters, keyset paging, and `q`, which a
 * trigram index serves in large facilities (migration 0007).
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { PLANNED_PER_CALL } from '../../db/postgres-dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { MEMBER_COLUMNS } from './member.repository.js';
import type { Member } from './member.schemas.js';
import { containsGlob, containsPattern, ftsPhrase, isIndexable } from './member-search-term.js';

export interface MemberFilter {
  sportId?: number;
  statuses?: string[];
  roles?: string[];
  planId?: number;
  q?: string;
  afterId: number;
  limit: number;
}

/**
 * A search reads the facility's next SEARCH_WINDOW members in order first, as
 * a list without `q` does. In a facility of up to that many members, and for a
 * term that many members contain, the page fills there, and more cheaply than
 * through the index, which finds the term's members in every facility. Only
 * the rest of a large facility is searched through the index.
 */
export const SEARCH_WINDOW = 1000;

export async function listMembers(db: Executor, facilityId: number, filter: MemberFilter): Promise<Member[]> {
  if (filter.q === undefined || !isIndexable(filter.q)) return scanMembers(db, facilityId, filter);
  const pastWindow = await findFirstIdPastWindow(db, facilityId, filter.afterId);
  if (pastWindow === undefined) return scanMembers(db, facilityId, filter);
  const scanned = await scanMembers(db, facilityId, filter, pastWindow);
  if (scanned.length === filter.limit) return scanned;
  // Ids are integers: the members after pastWindow - 1 are pastWindow and on.
  const rest = { ...filter, q: filter.q, afterId: pastWindow - 1, limit: filter.limit - scanned.length };
  const found =
    dialectOf(db) === 'postgres'
      ? await searchMembersByTrigrams(db, facilityId, rest)
      : await searchMembersInFts(db, facilityId, rest);
  return [...scanned, ...found];
}

/** The id of the first member after the window of SEARCH_WINDOW members that follows `afterId`, if any. */
async function findFirstIdPastWindow(db: Executor, facilityId: number, afterId: number) {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(1)
    .offset(SEARCH_WINDOW)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** The facility's members in id order that pass the filter, before `beforeId` if given. */
async function scanMembers(db: Executor, facilityId: number, filter: MemberFilter, beforeId?: number) {
  const rows = await db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) => passesFilter(eb, dialectOf(db), facilityId, filter))
    .$if(beforeId !== undefined, (qb) => qb.where('id', '<', beforeId as number))
    .orderBy('id')
    .limit(filter.limit)
    .execute();
  return rows as Member[];
}

type SearchFilter = MemberFilter & { q: string };

/**
 * PostgreSQL: the members whose indexed text (migration 0007) contains the
 * term, found through pg_trgm's GIN index. The text is the three fields a
 * line each, and an indexable term has no line break, so the text contains
 * the term exactly when a field does: the fields' own check would be the same
 * condition twice, which the planner would count as two and misjudge.
 */
async function searchMembersByTrigrams(db: Executor, facilityId: number, filter: SearchFilter) {
  const rows = await db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where((eb) => passesFilter(eb, 'postgres', facilityId, { ...filter, q: undefined }))
    // The index's expression, written as migration 0007 wrote it, or the planner cannot match it.
    .where(
      sql<boolean>`(lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))
        like ${containsPattern(filter.q)} escape '\\'`,
    )
    .orderBy('id')
    .limit(filter.limit)
    .modifyEnd(PLANNED_PER_CALL)
    .execute();
  return rows as Member[];
}

/**
 * SQLite: FTS5 yields the members that contain the term's trigrams in id
 * order, lazily, so the query stops at the page's last member; each is then
 * checked by the filter. (`id in (match)` would read every member of every
 * facility that contains a common term first.)
 */
async function searchMembersInFts(db: Executor, facilityId: number, filter: SearchFilter) {
  const rows = await db
    .selectFrom('member_search')
    .innerJoin('members', 'members.id', 'member_search.rowid')
    .select(MEMBER_COLUMNS.map((column) => `members.${column}` as const))
    .where('member_search.member_search', 'match', ftsPhrase(filter.q))
    .where('member_search.rowid', '>', filter.afterId)
    .where((eb) => passesFilter(eb as unknown as MembersExpressions, 'sqlite', facilityId, filter))
    .orderBy('member_search.rowid')
    .limit(filter.limit)
    .execute();
  return rows as Member[];
}

type MembersExpressions = ExpressionBuilder<DatabaseSchema, 'members'>;

function passesFilter(
  eb: MembersExpressions,
  dialect: 'sqlite' | 'postgres',
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
function containsIgnoringCase(
  dialect: 'sqlite' | 'postgres',
  column: (typeof SEARCHED_COLUMNS)[number],
  text: string,
) {
  return dialect === 'postgres'
    ? sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ${containsGlob(text)}`;
}
