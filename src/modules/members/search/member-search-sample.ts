/**
 * How a search chooses its way: a sample of the facility's members, kept for
 * a minute, tells how common the term and each of its parts (PostgreSQL) or
 * trigrams (SQLite) are, which neither pg_trgm's index (migration 0007) nor
 * FTS5's (migration 0030) keeps.
 */
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { dialectOf } from '../../../db/dialect.js';
import { PLANNED_PER_CALL } from '../../../db/planned-per-call.js';
import { type IndexedTerm, SEARCHED_TEXT } from './member-search-term.js';

/** A facility of at most this many members is searched in order: a whole read of it costs less than the index. */
export const SMALL_FACILITY = 1000;
/**
 * A term in at least this share of the sample is searched in order: a page
 * of 100 fills within about 100 / share members, where the index would find all of
 * the facility's members that have it (at a million members, 1 % is 10,000
 * rows against about 10,000 read in order).
 */
export const COMMON_TERM_SHARE = 0.01;
/**
 * A part in at least this share of the sample is not asked of the index
 * when a rarer part is: its posting lists are long and narrow the search
 * little. `.f1@`, `@example.` and `.com`, which every member of the bench's
 * large facility has, made up most of the index's time for an email.
 */
export const COMMON_PART_SHARE = 0.1;

/**
 * 200 stretches of 5 members: 1 % of the sample is then members from at
 * least two places in the facility, not one block of members added
 * together (an import sharing a surname). More, shorter stretches cost
 * more reads for little gain (docs/performance-log.md).
 */
const SEGMENTS = 200;
const PER_SEGMENT = 5;
const SAMPLE_TTL_MS = 60_000;
/**
 * Samples kept per database, the least recently searched dropped first: each
 * holds the searched text of up to 1,000 members.
 */
const MAX_SAMPLES = 32;

/** A facility's size, up to SMALL_FACILITY + 1, and the searched text of up to 1,000 of its members. */
export interface FacilitySample {
  /** Counted no further than SMALL_FACILITY + 1. */
  members: number;
  texts: string[];
}

/** The facility's sample, taken at most a minute ago, or taken now. */
export function sampleOfFacility(db: Executor, facilityId: number): Promise<FacilitySample> {
  let samples = samplesByDatabase.get(db);
  if (samples === undefined) {
    samples = new Map();
    samplesByDatabase.set(db, samples);
  }
  const now = Date.now();
  const kept = samples.get(facilityId);
  // Taken out and put back, a facility moves to the end of the Map's order: the first is the least recently searched.
  samples.delete(facilityId);
  if (kept !== undefined && now < kept.until) {
    samples.set(facilityId, kept);
    return kept.sample;
  }
  if (samples.size >= MAX_SAMPLES) samples.delete(samples.keys().next().value as number);
  // The promise is kept, so that the searches that arrive while it runs share it.
  const sample = dialectOf(db) === 'postgres' ? takeSample(db, facilityId) : takeSqliteSample(db, facilityId);
  samples.set(facilityId, { sample, until: now + SAMPLE_TTL_MS });
  sample.catch(() => {
    if (samples.get(facilityId)?.sample === sample) samples.delete(facilityId);
  });
  return sample;
}

const samplesByDatabase = new WeakMap<
  Executor,
  Map<number, { sample: Promise<FacilitySample>; until: number }>
>();

/**
 * The members at the start of SEGMENTS evenly spaced stretches of the
 * facility's ids, PER_SEGMENT each: spread over old and new members, found
 * by an index in 200 short reads, once a minute: little beside the
 * searches the sample sends the cheaper way (docs/performance-log.md). A
 * small facility is only counted: PostgreSQL runs a subquery in a `case`
 * only when its branch is taken. Planned per call: a plan for any facility
 * would read a small facility's count by scanning the table.
 */
async function takeSample(db: Executor, facilityId: number): Promise<FacilitySample> {
  const { rows } = await sql<{ members: number | string; texts: string[] | null }>`
    with counted as (
      select count(*) as members
      from (select from members where facility_id = ${facilityId} limit ${SMALL_FACILITY + 1}) as capped
    ),
    bounds as (select min(id) as low, max(id) as high from members where facility_id = ${facilityId})
    select counted.members, case when counted.members > ${SMALL_FACILITY} then array(
      select distinct on (sampled.id) sampled.text
      from bounds, generate_series(0, ${SEGMENTS - 1}) as segment,
        lateral (
          select id, ${SEARCHED_TEXT} as text from members
          where facility_id = ${facilityId}
            and id >= bounds.low + (bounds.high - bounds.low) * segment / ${SEGMENTS}
          order by id
          limit ${PER_SEGMENT}
        ) as sampled
    ) end as texts
    from counted
    ${PLANNED_PER_CALL}`.execute(db);
  return { members: Number(rows[0].members), texts: rows[0].texts ?? [] };
}

/**
 * The same sample on SQLite, which has neither `lateral` nor `distinct on`:
 * each stretch is a subquery of its own, and a member that two stretches
 * share (in a facility whose ids are few and far between) is kept once.
 */
async function takeSqliteSample(db: Executor, facilityId: number): Promise<FacilitySample> {
  const { rows } = await sql<{ members: number; stretch: string | null }>`
    with recursive segment(n) as (select 0 union all select n + 1 from segment where n < ${SEGMENTS - 1}),
    counted as (
      select count(*) as members
      from (select 1 from members where facility_id = ${facilityId} limit ${SMALL_FACILITY + 1})
    ),
    bounds as (select min(id) as low, max(id) as high from members where facility_id = ${facilityId})
    select counted.members, (
      select json_group_array(json_array(id, text)) from (
        select id, lower(first_name) || char(10) || lower(coalesce(last_name, '')) || char(10)
          || coalesce(email_folded, '') as text
        from members
        where facility_id = ${facilityId} and id >= bounds.low + (bounds.high - bounds.low) * segment.n / ${SEGMENTS}
        order by id
        limit ${PER_SEGMENT}
      )
    ) as stretch
    from counted, bounds, segment
    where counted.members > ${SMALL_FACILITY} or segment.n = 0`.execute(db);
  const members = Number(rows[0]?.members ?? 0);
  if (members <= SMALL_FACILITY) return { members, texts: [] };
  const texts = new Map<number, string>();
  for (const { stretch } of rows) {
    for (const [id, text] of JSON.parse(stretch ?? '[]') as [number, string][]) texts.set(id, text);
  }
  return { members, texts: [...texts.values()] };
}

/**
 * The term with the parts to ask the index for, or undefined when reading in
 * order costs less: in a small facility, or for a term common in it.
 */
export function chooseIndexedParts(sample: FacilitySample, indexed: IndexedTerm): IndexedTerm | undefined {
  if (sample.members <= SMALL_FACILITY) return undefined;
  const { term, parts } = indexed;
  if (shareContaining(sample, term) >= COMMON_TERM_SHARE) return undefined;
  const rare = parts.filter((part) => shareContaining(sample, part) < COMMON_PART_SHARE);
  return { term, parts: rare.length === 0 ? parts : rare };
}

function shareContaining(sample: FacilitySample, text: string): number {
  if (sample.texts.length === 0) return 0;
  let containing = 0;
  for (const sampled of sample.texts) if (sampled.includes(text)) containing++;
  return containing / sample.texts.length;
}
