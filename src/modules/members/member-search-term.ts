/**
 * How a `q` term becomes a pattern on each database: the exact check (a
 * substring of first name, last name or email, ignoring case), and the query
 * of the trigram index that finds the candidates (migration 0007).
 */

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
    const cases = new Set([char, char.toLowerCase(), char.toUpperCase()]);
    const variants = [...cases].filter((c) => Array.from(c).length === 1);
    return variants.length > 1 || '*?['.includes(char) ? `[${variants.join('')}]` : char;
  });
  return `*${classes.join('')}*`;
}

/** An FTS5 phrase of the whole term: its trigrams, in order. */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Whether the trigram index can find every member that contains the term.
 * A trigram needs three characters. And the index folds case by its own
 * tables (SQLite's, from an older Unicode than JavaScript's), so only letters
 * whose cases both agree on are safe: those with one lower and one upper case
 * that map to each other, in the blocks up to Cyrillic (U+052F), whose case
 * pairs are decades old. A term with other letters (`ß`, `İ`, `ſ`, Georgian)
 * is checked member by member, as a short term is. So is a term with a line
 * break, which separates the fields in the indexed text.
 */
export function isIndexable(text: string): boolean {
  const characters = Array.from(text);
  return characters.length >= 3 && !text.includes('\n') && characters.every(foldsAlike);
}

function foldsAlike(char: string): boolean {
  const lower = char.toLowerCase();
  const upper = char.toUpperCase();
  if (lower === upper) return true;
  return (
    (char.codePointAt(0) as number) <= 0x52f &&
    Array.from(lower).length === 1 &&
    Array.from(upper).length === 1 &&
    upper.toLowerCase() === lower &&
    lower.toUpperCase() === upper
  );
}
