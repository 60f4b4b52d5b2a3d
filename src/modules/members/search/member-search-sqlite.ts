/**
 * How a `q` term is asked of an FTS5 trigram index (SQLite's, migration
 * 0030): which of its trigrams the index can be trusted with, and which of
 * those are worth asking for. The index only narrows the members a search
 * reads; each is still checked against the whole term by the substring rule
 * (MemberSearch.foundByIndex), so a trigram left out costs time, never an
 * answer, and a trigram asked for must be in every member the rule accepts.
 */
import { caseVariants } from '../../../db/engine/member-search.js';
import {
  COMMON_PART_SHARE,
  COMMON_TERM_SHARE,
  type FacilitySample,
  SMALL_FACILITY,
} from './member-search-sample.js';

/**
 * At most this many trigrams are asked for: FTS5 reads each one's list of
 * members whole, and the rarest few narrow a search as much as all of them.
 */
export const MAX_TRIGRAMS = 4;

/**
 * The term's distinct trigrams (three characters in a row) whose every
 * character the index folds as the substring rule does. The rule accepts, for
 * each character of the term, its lower and upper case (caseVariants); FTS5's
 * trigram tokenizer folds the case of what it indexes and of what it is asked
 * for, which agrees with the rule for ASCII letters and for characters of one
 * case. Other letters (`é`, `ı`, whose upper case `I` folds to `i`) are left
 * out, with every trigram that holds them. A term of fewer than three
 * characters has no trigram.
 */
export function trustedTrigrams(q: string): string[] {
  const characters = Array.from(q);
  const trusted = characters.map((c) => /^[A-Za-z]$/.test(c) || caseVariants(c).length === 1);
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= characters.length; i++) {
    if (trusted[i] && trusted[i + 1] && trusted[i + 2]) {
      trigrams.add(
        characters
          .slice(i, i + 3)
          .join('')
          .replace(/[A-Z]/g, (c) => c.toLowerCase()),
      );
    }
  }
  return [...trigrams];
}

/**
 * The trigrams to ask the index for, or undefined when reading the
 * facility's members in order costs less: in a small facility, or for a term
 * common in it (its page fills within a few hundred members). Otherwise the
 * rarest trigrams in the sample, up to MAX_TRIGRAMS, leaving out those in at
 * least COMMON_PART_SHARE of it (`exa` in every email of example.com) unless
 * nothing rarer is left.
 */
export function chooseTrigrams(sample: FacilitySample, q: string, trigrams: string[]): string[] | undefined {
  if (trigrams.length === 0 || sample.members <= SMALL_FACILITY) return undefined;
  if (shareContaining(sample, q.toLowerCase()) >= COMMON_TERM_SHARE) return undefined;
  const ranked = trigrams
    .map((trigram) => ({ trigram, share: shareContaining(sample, trigram) }))
    .sort((a, b) => a.share - b.share);
  const rare = ranked.filter(({ share }) => share < COMMON_PART_SHARE);
  return (rare.length === 0 ? ranked.slice(0, 2) : rare.slice(0, MAX_TRIGRAMS)).map(({ trigram }) => trigram);
}

function shareContaining(sample: FacilitySample, text: string): number {
  if (sample.texts.length === 0) return 0;
  let containing = 0;
  for (const sampled of sample.texts) if (sampled.includes(text)) containing++;
  return containing / sample.texts.length;
}

/** An FTS5 query for members with every one of the trigrams: each a string, a token of its own. */
export function matchEvery(trigrams: string[]): string {
  return trigrams.map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}
