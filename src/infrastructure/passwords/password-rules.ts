import { COMMON_PASSWORDS } from './common-passwords.js';

/**
 * What a staff password must be, after NIST SP 800-63B (rev. 4, section 3.1.1.2): length, not
 * composition (no "one digit and one symbol" rules, which push people to predictable patterns),
 * and not a value an attacker tries first: a common password, the account's e-mail, the
 * product's name. Every Unicode character is allowed, spaces included; a password is
 * NFKC-normalised (so that the same characters typed on another keyboard or system match) and
 * counted in code points, as 800-63B asks.
 */
export const PASSWORD_MIN_CHARACTERS = 12;
/** Long enough for any passphrase, short enough that hashing it costs what any other does. */
export const PASSWORD_MAX_CHARACTERS = 128;
/** A shorter local part ("ann@…") would refuse every password that happens to contain it. */
const LOCAL_PART_MIN_CHARACTERS = 4;
const PRODUCT_NAME = 'facilityadmin';

/** The password as it is hashed: NFKC, so that equivalent sequences give the same hash. */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/** The form compared with e-mails, the product's name and common passwords: normalised, lower case. */
export function comparablePassword(password: string): string {
  return normalizePassword(password).toLowerCase();
}

/**
 * Why `password` may not be set for the person with `email`, in words to show them; undefined
 * when it may. The rules are checked in order and the first broken one is answered.
 */
export function passwordProblem(password: string, { email }: { email: string }): string | undefined {
  // A lone surrogate is no character: it would reach the hash as U+FFFD, like any other.
  if (/\p{Cs}/u.test(password)) return 'The password holds an invalid character.';
  const comparable = comparablePassword(password);
  const characters = [...comparable].length;
  if (characters < PASSWORD_MIN_CHARACTERS) {
    return `The password must be at least ${PASSWORD_MIN_CHARACTERS} characters long.`;
  }
  if (characters > PASSWORD_MAX_CHARACTERS) {
    return `The password must be at most ${PASSWORD_MAX_CHARACTERS} characters long.`;
  }
  const address = comparablePassword(email.trim());
  const localPart = address.slice(0, Math.max(0, address.lastIndexOf('@')));
  if (
    (address !== '' && comparable.includes(address)) ||
    ([...localPart].length >= LOCAL_PART_MIN_CHARACTERS && comparable.includes(localPart))
  ) {
    return 'The password must not contain your e-mail address or its name part.';
  }
  // "facility-admin", "Facility Admin", "facility_admin", "facilityadmin"…
  if (comparable.replace(/[\s._-]/gu, '').includes(PRODUCT_NAME)) {
    return "The password must not contain the product's name.";
  }
  if (new Set(comparable).size === 1) return 'The password must not be one character repeated.';
  if (COMMON_PASSWORDS.has(comparable)) {
    return 'This password is among the most common ones; choose another.';
  }
  return undefined;
}
