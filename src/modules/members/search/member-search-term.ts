/**
 * How a `q` term becomes a pattern on each database (a substring of first
 * name, last name or email, ignoring case), and whether PostgreSQL's trigram
 * index can serve it (migration 0007).
 */
import { sql } from 'kysely';

/** LIKE pattern for a lower-cased substring, with the wildcard characters escaped. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * GLOB pattern for a substring in either case. SQLite's lower() and LIKE fold
 * ASCII letters only, so `Élo` would not find `Élodie`; a class per letter
 * (`[éÉ]`) matches both cases of any letter. GLOB's own wildcards become
 * one-character classes so that they match literally.
 */
export function containsGlob(text: string): string {
  const classes = Array.from(text, (char) => {
    const variants = caseVariants(char);
    return variants.length > 1 || '*?['.includes(char) ? `[${variants.join('')}]` : char;
  });
  return `*${classes.join('')}*`;
}

/** A character with its lower and upper case, each where it is a single character (`ß` has no upper case of one). */
export function caseVariants(char: string): string[] {
  const cases = new Set([char, char.toLowerCase(), char.toUpperCase()]);
  return [...cases].filter((c) => Array.from(c).length === 1);
}

/** A term as the trigram index (PostgreSQL) is asked for it. */
export interface IndexedTerm {
  /** The term lower-cased, as the indexed text is. */
  term: string;
  parts: string[];
}

/**
 * The term with its parts (indexedParts), or undefined when the trigram
 * index should not serve it. A term needs three letters or digits in a row,
 * or two beside another character (`jo li`, `m7.f1@`), for a trigram that
 * names two of its characters. Without one it has at most trigrams such as
 * `  m` (a word that begins with m), which most members have, and which the
 * planner prices as if rare: such a term (`x.m`) takes longer through the
 * index than read in order, and a term with no trigram at all would read
 * the whole index (docs/performance-log.md). The indexed text separates
 * the fields with line breaks, so a term without one is in the text exactly
 * when it is in a field.
 */
export function indexedTerm(q: string): IndexedTerm | undefined {
  const term = q.toLowerCase();
  if (term.includes('\n') || !TWO_CHARACTER_TRIGRAM.test(term)) return undefined;
  return { term, parts: indexedParts(term) };
}

const TWO_CHARACTER_TRIGRAM = /[\p{L}\p{N}]{3}|[^\p{L}\p{N}][\p{L}\p{N}]{2}|[\p{L}\p{N}]{2}[^\p{L}\p{N}]/u;

/**
 * The parts of a lower-cased term that the trigram index (PostgreSQL) is
 * asked for, one condition each: every run of letters and digits with the
 * characters around it. Each part is in the indexed text whenever the term
 * is. The index checks every trigram of a condition against every member
 * that the condition's rarest trigram finds, while separate conditions skip
 * to each other's members: the whole email `m523456.f1@example.com` read the
 * posting lists of `exa`, `com` and the rest of the trigrams every member
 * has (4,833 index pages at a million members), its parts 136.
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

/**
 * The index's expression, written as migration 0007 wrote it, or the planner
 * cannot match it: the three fields lower-cased, a line each.
 */
export const SEARCHED_TEXT = sql`(lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))`;
