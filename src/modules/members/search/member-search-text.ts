/**
 * The text a `q` search reads, and the words it looks for, folded alike:
 * lower case, accents removed (NFKD, combining marks dropped), so that
 * `zoe` finds `Zoë` and `MULLER` finds `Müller`. The text is written with the
 * member (member.repository.ts, migration 0041): engines fold accents
 * differently, or not at all, so the service folds them once, in TypeScript.
 */

/** The fields a search reads, as a member holds them. */
export interface SearchedFields {
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
}

export const SEARCHED_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'external_id'] as const;

/**
 * Lower case without accents. Lower-cased before and after the decomposition:
 * `İ` lower-cases to `i` and a combining dot, and a compatibility form (`ℌ`)
 * decomposes to a capital.
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * The member's searched text: first name, last name, email, the phone's
 * digits and the external id, folded, a line each. A word of `q` has no line
 * break, so it is in the text exactly when it is in one field.
 */
export function searchTextOf(member: SearchedFields): string {
  return [
    member.first_name,
    member.last_name ?? '',
    member.email ?? '',
    member.phone ?? '',
    member.external_id ?? '',
  ]
    .map((field, i) => (i === 3 ? digitsOf(foldForSearch(field)) : foldForSearch(field)))
    .join('\n');
}

/** A word of digits and the signs a phone number is written with (`+41`, `079-123`, `(0)44`). */
const PHONE_PIECE = /^[\d+()./-]*\d[\d+()./-]*$/;

/**
 * The words of `q` that a member's text must each contain: split at white
 * space and folded; a run of words of digits and phone signs (`079 123-45
 * 67`) is one word of its digits, as the text holds a phone. Each word once;
 * none when `q` is only white space (or marks that fold away).
 */
export function queryWords(q: string): string[] {
  const words: string[] = [];
  let digits = '';
  for (const piece of q.split(/\s+/u)) {
    const folded = foldForSearch(piece);
    if (PHONE_PIECE.test(folded)) {
      digits += digitsOf(folded);
      continue;
    }
    if (digits !== '') words.push(digits);
    digits = '';
    if (folded !== '') words.push(folded);
  }
  if (digits !== '') words.push(digits);
  return [...new Set(words)];
}
