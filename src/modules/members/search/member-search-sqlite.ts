/**
 * How the words of a `q` are asked of an FTS5 trigram index (SQLite's,
 * migration 0041): which of their trigrams are worth asking for. The index
 * only narrows the members a search reads; each is still checked against
 * every word (MemberSearch.foundByIndex), so a trigram left out costs time,
 * never an answer. The indexed text and the words are folded alike
 * (member-search-text.ts) and the tokenizer keeps case, so every trigram of
 * a word is in every text that contains the word.
 */
import {
  COMMON_PART_SHARE,
  COMMON_TERM_SHARE,
  type FacilitySample,
  SMALL_FACILITY,
  shareContainingAll,
} from './member-search-sample.js';

/**
 * At most this many trigrams are asked for: FTS5 reads each one's list of
 * members whole, and the rarest few narrow a search as much as all of them.
 */
export const MAX_TRIGRAMS = 4;

/** The words' distinct trigrams (three characters in a row); a word of fewer than three characters has none. */
export function trigramsOf(words: string[]): string[] {
  const trigrams = new Set<string>();
  for (const word of words) {
    const characters = Array.from(word);
    for (let i = 0; i + 3 <= characters.length; i++) trigrams.add(characters.slice(i, i + 3).join(''));
  }
  return [...trigrams];
}

/**
 * The trigrams to ask the index for, or undefined when reading the
 * facility's members in order costs less: in a small facility, or for words
 * common in it (its page fills within a few hundred members). Otherwise the
 * rarest trigrams in the sample, up to MAX_TRIGRAMS, leaving out those in at
 * least COMMON_PART_SHARE of it (`exa` in every email of example.com) unless
 * nothing rarer is left.
 */
export function chooseTrigrams(
  sample: FacilitySample,
  words: string[],
  trigrams: string[],
): string[] | undefined {
  if (trigrams.length === 0 || sample.members <= SMALL_FACILITY) return undefined;
  if (shareContainingAll(sample, words) >= COMMON_TERM_SHARE) return undefined;
  const ranked = trigrams
    .map((trigram) => ({ trigram, share: shareContainingAll(sample, [trigram]) }))
    .sort((a, b) => a.share - b.share);
  const rare = ranked.filter(({ share }) => share < COMMON_PART_SHARE);
  return (rare.length === 0 ? ranked.slice(0, 2) : rare.slice(0, MAX_TRIGRAMS)).map(({ trigram }) => trigram);
}

/** An FTS5 query for members with every one of the trigrams: each a string, a token of its own. */
export function matchEvery(trigrams: string[]): string {
  return trigrams.map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}
