/**
 * The members' `q` on PostgreSQL: each word a substring of `search_text`
 * (strpos), and pg_trgm's GIN index on that column (migration 0041) for
 * words rare in a large facility.
 */
import { sql } from 'kysely';
import type { Executor } from '../engine/executor.js';
import type { FacilitySample, IndexQuery, MemberSearch, SampleShape } from '../engine/member-search.js';
import { PLANNED_PER_CALL } from '../engine/planned-per-call.js';

/** LIKE pattern for a substring, with the wildcard characters escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// strpos, not LIKE: the index cannot serve it, so it stays a check of the rows read.
const containsWord = (word: string) => sql<boolean>`strpos(search_text, ${word}) > 0`;

export const postgresMemberSearch: MemberSearch = {
  indexAsks: 'term-parts',
  containsWord,
  sample: takeSample,
  /**
   * The members whose text contains every part, which the index finds, and
   * every word. A word that is one of the parts is its own index condition:
   * a second check of it would count twice in the planner's estimate.
   */
  foundByIndex(query: IndexQuery) {
    if (query.asks !== 'term-parts')
      throw new Error(`PostgreSQL's search index takes term parts, not ${query.asks}`);
    const { words, parts } = query;
    const conditions = parts.map(
      (part) => sql<boolean>`search_text like ${containsPattern(part)} escape '\\'`,
    );
    for (const word of words) if (!parts.includes(word)) conditions.push(containsWord(word));
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
          select id, search_text as text from members
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
