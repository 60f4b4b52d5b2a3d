/**
 * The members' `q` on SQLite: each word a substring of `search_text`
 * (instr), and the FTS5 trigram table of migration 0041 for words rare in a
 * large facility.
 */
import { sql } from 'kysely';
import type { Executor } from '../engine/executor.js';
import type { FacilitySample, IndexQuery, MemberSearch, SampleShape } from '../engine/member-search.js';

const containsWord = (word: string) => sql<boolean>`instr(search_text, ${word}) > 0`;

export const sqliteMemberSearch: MemberSearch = {
  indexAsks: 'trigrams',
  containsWord,
  sample: takeSample,
  /**
   * The members that FTS5's index finds with every trigram of the query,
   * from the page's start on, each checked against every word: the index
   * narrows, the words decide.
   */
  foundByIndex(query: IndexQuery, afterId: number) {
    if (query.asks !== 'trigrams') throw new Error(`SQLite's search index takes trigrams, not ${query.asks}`);
    const words = query.words.map(containsWord);
    return sql<boolean>`(id in (select rowid from member_search where member_search match ${query.match}
        and rowid > ${afterId}) and ${sql.join(words, sql` and `)})`;
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
        select id, search_text as text
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
