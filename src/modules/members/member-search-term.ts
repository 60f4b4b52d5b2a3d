/**
 * How a `q` term becomes a pattern on each database (a substring of first
 * name, last name or email, ignoring case), and whether PostgreSQL's trigram
 * index can serve it (migration 0007).
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

/**
 * Whether the trigram index (PostgreSQL) can serve the term: a trigram needs
 * three characters, and the indexed text separates the fields with line
 * breaks, so a term without one is in the text exactly when it is in a field.
 */
export function isIndexable(text: string): boolean {
  return Array.from(text).length >= 3 && !text.includes('\n');
}
