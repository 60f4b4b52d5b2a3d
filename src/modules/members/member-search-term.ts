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
 * Whether the trigram index (PostgreSQL) may serve the term. pg_trgm takes
 * its trigrams from runs of letters and digits: a term with no three in a
 * row may have none, and the planner then reads the whole index (`...` at a
 * million members: 3.2 s, against 0.8 s reading the facility in order). The
 * indexed text separates the fields with line breaks, so a term without one
 * is in the text exactly when it is in a field.
 */
export function isIndexable(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text) && !text.includes('\n');
}
