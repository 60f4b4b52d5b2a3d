import { Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import { normalizePassword } from './password-rules.js';

/**
 * Argon2id with the configuration that OWASP's Password Storage Cheat Sheet recommends in its
 * summary: m=19456 (19 MiB), t=2, p=1 (one of its five equivalent ones; the others trade memory
 * for passes). They are the library's defaults too, set here so that an upgrade of the library
 * cannot change them unseen. Its 46 MiB configuration would hold more than twice the memory per
 * sign-in, a large share of a process's memory (docs/operations.md). The time one hash takes
 * is in docs/performance-log.md.
 */
export const ARGON2ID_PARAMETERS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * A hash with the same parameters of a random password that was thrown away: verifying against
 * it costs what verifying against a stored hash costs, and nothing matches it. A test checks that
 * its parameters are ARGON2ID_PARAMETERS.
 */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$knsq7b6HZmWKwSRXm7oROg$gNErZ8/dapQFV6QGf9KCvr3ZSWnC8R32M47df/ksx9A';

/**
 * Hashes a process computes at once; more wait their turn. Each holds 19 MiB outside the
 * JavaScript heap while it runs, and each runs on one of libuv's four threads, which file reads
 * and DNS look-ups (webhook deliveries) share: a burst of sign-ins must leave them some.
 */
export const HASHES_AT_ONCE = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next waiter, so `running` counts it already.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** The PHC string to store (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), with a random 16-byte salt. */
export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(normalizePassword(password), ARGON2ID_PARAMETERS));
}

/** Whether `password` is the one `storedHash` was made from; a malformed hash matches nothing. */
export function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  return inTurn(async () => {
    try {
      return await verify(storedHash, normalizePassword(password));
    } catch {
      return false;
    }
  });
}

/**
 * For a sign-in with an unknown e-mail (or a person who has no password): does the work of a
 * verification and answers false, so that the answer takes as long as a wrong password's and
 * does not tell which e-mails have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}

/** Whether a stored hash was made with other parameters: hash the password again at its next sign-in. */
export function needsRehash(storedHash: string): boolean {
  try {
    const used = parseOptions(storedHash);
    return (
      used.algorithm !== ARGON2ID_PARAMETERS.algorithm ||
      used.memoryCost !== ARGON2ID_PARAMETERS.memoryCost ||
      used.timeCost !== ARGON2ID_PARAMETERS.timeCost ||
      used.parallelism !== ARGON2ID_PARAMETERS.parallelism
    );
  } catch {
    return true;
  }
}
