import type { RawBuilder } from 'kysely';
import type { Executor } from './executor.js';

/** A facility's size, counted up to a bound, and the searched text of some of its members. */
export interface FacilitySample {
  /** Counted no further than the shape's `smallFacility` + 1. */
  members: number;
  /** Each sampled member's `search_text` (folded, migration 0041). */
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
 * What a search asks of the engine's trigram index over `search_text`. The
 * index narrows the members read; each is still checked against every word.
 * - `term-parts`: pg_trgm's GIN index, asked for each part (one condition
 *   each), every word checked whole.
 * - `trigrams`: an FTS5 trigram table, asked with an FTS5 query (`match`),
 *   the members it finds checked against every word.
 */
export type IndexQuery =
  | { asks: 'term-parts'; words: string[]; parts: string[] }
  | { asks: 'trigrams'; match: string; words: string[] };

/** The engine's side of the members' `q` search (src/modules/members/search/). */
export interface MemberSearch {
  /** The kind of query this engine's trigram index takes. */
  readonly indexAsks: IndexQuery['asks'];
  /** SQL on `members`: its `search_text` contains `word` (folded alike), character for character. */
  containsWord(word: string): RawBuilder<boolean>;
  /** The facility's sample, in one query, planned for this facility. */
  sample(db: Executor, facilityId: number, shape: SampleShape): Promise<FacilitySample>;
  /**
   * A condition on `members`: the member is one the index finds for `query`
   * and its text contains every word. `afterId` is the page's start, for an
   * index that can skip to it.
   */
  foundByIndex(query: IndexQuery, afterId: number): RawBuilder<boolean>;
}
