/**
 * The one way a test waits for something that happens on its own (a delivery,
 * a job's run, a long poll held): `check` is asked again and again until it
 * gives a value that is not false, null or undefined, which `eventually`
 * returns. Past `timeoutMs` it fails with "timed out waiting for <what>" and
 * the last value or error `check` gave. The timeout is how long to give up
 * after, not a bound the test asserts: a fast machine never comes near it.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 10;

export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== null && value !== undefined)
        return value as Exclude<T, false | null | undefined>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out waiting for ${what} (last seen: ${seen})`);
    }
    await sleep(POLL_MS);
  }
}
