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

/**
 * The parts of the term that the trigram index (PostgreSQL) is asked for, one
 * condition each: every run of letters and digits with the characters around
 * it, lower-cased. Each part is in the indexed text whenever the term is.
 * The index checks every trigram of a condition against every member that
 * the condition's rarest trigram finds, while separate conditions skip to
 * each other's members: the whole email `m523456.f1@example.com` read the
 * posting lists of `exa`, `com` and the rest of the trigrams every member
 * has (4,833 index pages at a million members), its parts 69.
 *
 * pg_trgm pads a run with two blanks before it when a character precedes it
 * and with one after it when one follows, and a part without a trigram would
 * make the index read every member, so such parts (`a.` at the term's start)
 * are left out.
 */
export function indexedParts(text: string): string[] {
  const lower = text.toLowerCase();
  const parts = new Set<string>();
  for (const { 0: run, index } of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
    const before = /[^\p{L}\p{N}]+$/u.exec(lower.slice(0, index))?.[0] ?? '';
    const after = /^[^\p{L}\p{N}]+/u.exec(lower.slice(index + run.length))?.[0] ?? '';
    const trigrams = Array.from(run).length + (before === '' ? 0 : 2) + (after === '' ? 0 : 1) - 2;
    if (trigrams > 0) parts.add(before + run + after);
  }
  return [...parts];
}
