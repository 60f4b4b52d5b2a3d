/**
 * Whether PostgreSQL's trigram index (migration 0041) can serve the words of
 * a `q`, and by which parts of them.
 */

/** The words of `q` as the trigram index (PostgreSQL) is asked for them. */
export interface IndexedTerm {
  /** The words, folded as the indexed text is (member-search-text.ts). */
  words: string[];
  parts: string[];
}

/**
 * The words with the parts of those the index can serve (indexedParts), or
 * undefined when the trigram index should serve none of them. A word needs
 * three letters or digits in a row, or two beside another character (`m7.`,
 * `.f1@`), for a trigram that names two of its characters. Without one it has
 * at most trigrams such as `  m` (a word that begins with m), which most
 * members have, and which the planner prices as if rare: such a term (`x.m`)
 * takes longer through the index than read in order, and a term with no
 * trigram at all would read the whole index (docs/performance-log.md). The
 * other words are still checked, on the members the served ones find.
 */
export function indexedTerm(words: string[]): IndexedTerm | undefined {
  const served = words.filter((word) => TWO_CHARACTER_TRIGRAM.test(word));
  if (served.length === 0) return undefined;
  return { words, parts: [...new Set(served.flatMap(indexedParts))] };
}

const TWO_CHARACTER_TRIGRAM = /[\p{L}\p{N}]{3}|[^\p{L}\p{N}][\p{L}\p{N}]{2}|[\p{L}\p{N}]{2}[^\p{L}\p{N}]/u;

/**
 * The parts of a folded word that the trigram index (PostgreSQL) is
 * asked for, one condition each: every run of letters and digits with the
 * characters around it. Each part is in the indexed text whenever the term
 * is. The index checks every trigram of a condition against every member
 * that the condition's rarest trigram finds, while separate conditions skip
 * to each other's members: the whole email `m523456.f1@example.com` read the
 * posting lists of `exa`, `com` and the rest of the trigrams every member
 * has, its parts few of those pages (docs/performance-log.md).
 *
 * pg_trgm pads a run with two blanks before it when a character precedes it
 * and with one after it when one follows. A condition without a trigram
 * reads the whole index when it is the only one (and, before PostgreSQL 13,
 * beside others too), so such parts (`a.` at the term's start) are left out.
 * pg_trgm's letters are not quite JavaScript's (combining marks are letters
 * to it, `½` is a digit to JavaScript), so a part may still lack a trigram;
 * beside one that has some, PostgreSQL 13 and later skip it.
 */
export function indexedParts(term: string): string[] {
  const parts = new Set<string>();
  for (const match of term.matchAll(/[\p{L}\p{N}]+/gu)) {
    const run = match[0];
    const before = /[^\p{L}\p{N}]+$/u.exec(term.slice(0, match.index))?.[0] ?? '';
    const after = /^[^\p{L}\p{N}]+/u.exec(term.slice(match.index + run.length))?.[0] ?? '';
    const trigramCount = Array.from(run).length + (before === '' ? 0 : 2) + (after === '' ? 0 : 1) - 2;
    if (trigramCount > 0) parts.add(before + run + after);
  }
  return [...parts];
}
