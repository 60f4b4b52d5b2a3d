import type { RawBuilder } from 'kysely';
import type { Executor } from './executor.js';

/**
 * The characters that a character of a `q` term matches: itself, its lower
 * and its upper case, each where it is a single character (`ß` has no upper
 * case of one).
 */
export function caseVariants(char: string): string[] {
  const cases = new Set([char, char.toLowerCase(), char.toUpperCase()]);
  return [...cases].filter((c) => Array.from(c).length === 1);
}

/** A facility's size, counted up to a bound, and the searched text of some of its members. */
export interface FacilitySample {
  /** Counted no further than the shape's `smallFacility` + 1. */
  members: number;
  /** Each sampled member's first name and last name lower-cased and email_folded, a line each. */
  texts: string[];
}

/** Which members a sample holds. */
export interface SampleShape {
  /** A facility of at most this many members is only counted (its texts are empty). */
  smallFacility: number;
  /** The first `perSegment` members of each of `segments` evenly spaced stretches of the facility's ids. */
  segments: number;
  perSegment: number;
}

/**
 * What a search asks of the engine's trigram index. The index narrows the
 * members read; each is still checked against the whole term.
 * - `term-parts`: pg_trgm's GIN index, asked for each part of the
 *   lower-cased term (one condition each), the term checked whole.
 * - `trigrams`: an FTS5 trigram table, asked with an FTS5 query (`match`),
 *   the members it finds checked against `q` by the substring rule.
 */
export type IndexQuery =
  | { asks: 'term-parts'; term: string; parts: string[] }
  | { asks: 'trigrams'; match: string; q: string };

/** The engine's side of the members' `q` search (src/modules/members/search/). */
export interface MemberSearch {
  /** The kind of query this engine's trigram index takes. */
  readonly indexAsks: IndexQuery['asks'];
  /** The facility's sample, in one query, planned for this facility. */
  sample(db: Executor, facilityId: number, shape: SampleShape): Promise<FacilitySample>;
  /**
   * A condition on `members`: the member is one the index finds for `query`
   * and it contains the term. `afterId` is the page's start, for an index
   * that can skip to it.
   */
  foundByIndex(query: IndexQuery, afterId: number): RawBuilder<boolean>;
}
