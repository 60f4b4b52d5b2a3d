import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { invalidField } from '../../core/errors.js';

let ianaNames: Map<string, string> | undefined;
/**
 * Names already found usable: building an Intl formatter, which is how a name
 * is checked, costs far more than a lookup here. At most the ~600 IANA names.
 */
const usable = new Set<string>();

/**
 * Every name of the IANA time zone database, zones and links (aliases such
 * as `Asia/Calcutta`) alike, by its lower-case form. The runtime cannot list
 * them: `Intl.supportedValuesOf` gives canonical names only, and `Intl`
 * accepts names that are not IANA's (`IST`, `SystemV/AST4`). They come from
 * the `tzdata` package, read once on first use; only the names are kept.
 */
function ianaNameMap(): Map<string, string> {
  if (!ianaNames) {
    const file = createRequire(import.meta.url).resolve('tzdata');
    const { zones } = JSON.parse(readFileSync(file, 'utf8')) as { zones: Record<string, unknown> };
    ianaNames = new Map(Object.keys(zones).map((name) => [name.toLowerCase(), name]));
  }
  return ianaNames;
}

/**
 * A policy's time zone must be an IANA name, spelled as IANA spells it, that
 * the runtime can compute dates in. It is stored as sent: an alias stays an
 * alias (`Asia/Kolkata` is not renamed `Asia/Calcutta`, as `Intl` would).
 * Offsets (`+05:30`) are no IANA names.
 */
export function assertTimeZoneName(name: string): void {
  const spelled = ianaNameMap().get(name.toLowerCase());
  if (spelled === undefined) {
    throw invalidField('body', '/timezone', `"${name}" is not an IANA time zone name`);
  }
  if (spelled !== name) {
    throw invalidField(
      'body',
      '/timezone',
      `"${name}" is not an IANA time zone name; IANA spells it "${spelled}"`,
    );
  }
  if (usable.has(name)) return;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
  } catch {
    throw invalidField('body', '/timezone', `"${name}" is not a time zone this service can compute dates in`);
  }
  usable.add(name);
}
