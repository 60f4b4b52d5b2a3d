/**
 * How a search chooses its way: a sample of the facility's members, kept for
 * a minute, tells how common the term and each of its parts (PostgreSQL) or
 * trigrams (SQLite) are, which neither pg_trgm's index nor FTS5's (migration
 * 0041) keeps.
 */
import type { Executor } from '../../../db/database.js';
import { engineOf } from '../../../db/engine/engine.js';
import type { FacilitySample, SampleShape } from '../../../db/engine/member-search.js';
import type { IndexedTerm } from './member-search-term.js';

export type { FacilitySample } from '../../../db/engine/member-search.js';

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
 * The members at the start of 200 evenly spaced stretches of the facility's
 * ids, 5 each: spread over old and new members, found by an index in 200
 * short reads, once a minute, which costs little beside the searches the
 * sample sends the cheaper way (docs/performance-log.md). 1 % of the sample
 * is then members from at least two places in the facility, not one block
 * of members added together (an import sharing a surname). More, shorter
 * stretches cost more reads for little gain.
 */
const SHAPE: SampleShape = { smallFacility: SMALL_FACILITY, segments: 200, perSegment: 5 };
const SAMPLE_TTL_MS = 60_000;
/**
 * Samples kept per database, the least recently searched dropped first: each
 * holds the searched text of up to 1,000 members.
 */
const MAX_SAMPLES = 32;

/** The facility's sample, taken at most a minute ago, or taken now. */
export function sampleOfFacility(db: Executor, facilityId: number): Promise<FacilitySample> {
  let samples = samplesByDatabase.get(db);
  if (samples === undefined) {
    samples = new Map();
    samplesByDatabase.set(db, samples);
  }
  const now = performance.now();
  const kept = samples.get(facilityId);
  // Taken out and put back, a facility moves to the end of the Map's order: the first is the least recently searched.
  samples.delete(facilityId);
  if (kept !== undefined && now < kept.until) {
    samples.set(facilityId, kept);
    return kept.sample;
  }
  if (samples.size >= MAX_SAMPLES) samples.delete(samples.keys().next().value as number);
  // The promise is kept, so that the searches that arrive while it runs share it.
  const sample = engineOf(db).memberSearch.sample(db, facilityId, SHAPE);
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
 * The words with the parts to ask the index for, or undefined when reading
 * in order costs less: in a small facility, or for words common in it.
 */
export function chooseIndexedParts(sample: FacilitySample, indexed: IndexedTerm): IndexedTerm | undefined {
  if (sample.members <= SMALL_FACILITY) return undefined;
  const { words, parts } = indexed;
  if (shareContainingAll(sample, words) >= COMMON_TERM_SHARE) return undefined;
  const rare = parts.filter((part) => shareContainingAll(sample, [part]) < COMMON_PART_SHARE);
  return { words, parts: rare.length === 0 ? parts : rare };
}

/** The share of the sample whose texts contain every one of `texts`. */
export function shareContainingAll(sample: FacilitySample, texts: string[]): number {
  if (sample.texts.length === 0) return 0;
  let containing = 0;
  for (const sampled of sample.texts) if (texts.every((text) => sampled.includes(text))) containing++;
  return containing / sample.texts.length;
}
