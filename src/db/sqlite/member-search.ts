/**
 * The members' `q` on SQLite: a substring in either case by GLOB, and the
 * FTS5 trigram table of migration 0030 for a term rare in a large facility.
 */
import { sql } from 'kysely';
import type { Executor } from '../engine/executor.js';
import {
  caseVariants,
  type FacilitySample,
  type IndexQuery,
  type MemberSearch,
  type SampleShape,
} from '../engine/member-search.js';

/**
 * GLOB pattern for a substring in either case. SQLite's lower() and LIKE fold
 * ASCII letters only, so `Élo` would not find `Élodie`; a class per letter
 * (`[éÉ]`) matches both cases of any letter. GLOB's own wildcards become
 * one-character classes so that they match literally.
 */
function containsGlob(text: string): string {
  const classes = Array.from(text, (char) => {
    const variants = caseVariants(char);
    return variants.length > 1 || '*?['.includes(char) ? `[${variants.join('')}]` : char;
  });
  return `*${classes.join('')}*`;
}

export function containsIgnoringCase(column: string, text: string) {
  return sql<boolean>`${sql.ref(column)} glob ${containsGlob(text)}`;
}

/** The columns that migration 0030's table indexes, which `q` searches. */
const SEARCHED_COLUMNS = ['first_name', 'last_name', 'email_folded'];

export const sqliteMemberSearch: MemberSearch = {
  indexAsks: 'trigrams',
  sample: takeSample,
  /**
   * The members that FTS5's index finds with every trigram of the query,
   * from the page's start on, each checked against `q`: the index narrows,
   * the substring rule decides.
   */
  foundByIndex(query: IndexQuery, afterId: number) {
    if (query.asks !== 'trigrams') throw new Error(`SQLite's search index takes trigrams, not ${query.asks}`);
    const containsQ = SEARCHED_COLUMNS.map((column) => containsIgnoringCase(column, query.q));
    return sql<boolean>`(id in (select rowid from member_search where member_search match ${query.match}
        and rowid > ${afterId}) and (${sql.join(containsQ, sql` or `)}))`;
  },
};

/**
 * The sample with neither `lateral` nor `distinct on`: each stretch is a
 * subquery of its own, and a member that two stretches share (in a facility
 * whose ids are few and far between) is kept once.
 */
async function takeSample(db: Executor, facilityId: number, shape: SampleShape): Promise<FacilitySample> {
  const { smallFacility, segments, perSegment } = shape;
  const { rows } = await sql<{ members: number; stretch: string | null }>`
    with recursive segment(n) as (select 0 union all select n + 1 from segment where n < ${segments - 1}),
    counted as (
      select count(*) as members
      from (select 1 from members where facility_id = ${facilityId} limit ${smallFacility + 1})
    ),
    bounds as (select min(id) as low, max(id) as high from members where facility_id = ${facilityId})
    select counted.members, (
      select json_group_array(json_array(id, text)) from (
        select id, lower(first_name) || char(10) || lower(coalesce(last_name, '')) || char(10)
          || coalesce(email_folded, '') as text
        from members
        where facility_id = ${facilityId} and id >= bounds.low + (bounds.high - bounds.low) * segment.n / ${segments}
        order by id
        limit ${perSegment}
      )
    ) as stretch
    from counted, bounds, segment
    where counted.members > ${smallFacility} or segment.n = 0`.execute(db);
  const members = Number(rows[0]?.members ?? 0);
  if (members <= smallFacility) return { members, texts: [] };
  const texts = new Map<number, string>();
  for (const { stretch } of rows) {
    for (const [id, text] of JSON.parse(stretch ?? '[]') as [number, string][]) texts.set(id, text);
  }
  return { members, texts: [...texts.values()] };
}
