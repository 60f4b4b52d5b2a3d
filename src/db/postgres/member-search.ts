/**
 * The members' `q` on PostgreSQL: a substring by `lower() LIKE`, and pg_trgm's
 * GIN index of migration 0007 for a term rare in a large facility.
 */
import { sql } from 'kysely';
import type { Executor } from '../engine/executor.js';
import type { FacilitySample, IndexQuery, MemberSearch, SampleShape } from '../engine/member-search.js';
import { PLANNED_PER_CALL } from '../engine/planned-per-call.js';

/** LIKE pattern for a lower-cased substring, with the wildcard characters escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function containsIgnoringCase(column: string, text: string) {
  return sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

/**
 * The index's expression, written as migration 0007 wrote it, or the planner
 * cannot match it: the three fields lower-cased, a line each.
 */
const SEARCHED_TEXT = sql`(lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))`;

export const postgresMemberSearch: MemberSearch = {
  indexAsks: 'term-parts',
  sample: takeSample,
  /**
   * The members whose indexed text contains every part, which the index
   * finds, and the whole term. The text is the three fields a line each,
   * and an indexable term has no line break, so the text contains the term
   * exactly when a field does (the email is stored lower-cased, as
   * email_folded, so its lower() is its own). A term that is one part is its
   * own index condition: a second check of it would count twice in the
   * planner's estimate.
   */
  foundByIndex(query: IndexQuery) {
    if (query.asks !== 'term-parts')
      throw new Error(`PostgreSQL's search index takes term parts, not ${query.asks}`);
    const { term, parts } = query;
    const conditions = parts.map(
      (part) => sql<boolean>`${SEARCHED_TEXT} like ${containsPattern(part)} escape '\\'`,
    );
    // strpos, not LIKE: the index cannot serve it, so it stays a check of the rows the parts found.
    if (parts.length !== 1 || parts[0] !== term)
      conditions.push(sql<boolean>`strpos(${SEARCHED_TEXT}, ${term}) > 0`);
    return sql<boolean>`(${sql.join(conditions, sql` and `)})`;
  },
};

/**
 * The members at the start of evenly spaced stretches of the facility's
 * ids, found by an index in short reads. A small facility is only counted:
 * PostgreSQL runs a subquery in a `case` only when its branch is taken.
 * Planned per call: a plan for any facility would read a small facility's
 * count by scanning the table.
 */
async function takeSample(db: Executor, facilityId: number, shape: SampleShape): Promise<FacilitySample> {
  const { smallFacility, segments, perSegment } = shape;
  const { rows } = await sql<{ members: number | string; texts: string[] | null }>`
    with counted as (
      select count(*) as members
      from (select from members where facility_id = ${facilityId} limit ${smallFacility + 1}) as capped
    ),
    bounds as (select min(id) as low, max(id) as high from members where facility_id = ${facilityId})
    select counted.members, case when counted.members > ${smallFacility} then array(
      select distinct on (sampled.id) sampled.text
      from bounds, generate_series(0, ${segments - 1}) as segment,
        lateral (
          select id, ${SEARCHED_TEXT} as text from members
          where facility_id = ${facilityId}
            and id >= bounds.low + (bounds.high - bounds.low) * segment / ${segments}
          order by id
          limit ${perSegment}
        ) as sampled
    ) end as texts
    from counted
    ${PLANNED_PER_CALL}`.execute(db);
  return { members: Number(rows[0].members), texts: rows[0].texts ?? [] };
}
