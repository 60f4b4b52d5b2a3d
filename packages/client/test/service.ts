/**
 * The service the client's tests talk to: the real app of test/harness.ts,
 * listening on a port, with an admin key.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before } from 'node:test';
import { type Api, testClock } from '../../../test/harness.js';
import { type ClientOptions, createClient, ProblemError } from '../src/index.js';

export const API_KEY = 'client-test-admin-key';

/** The harness's settings for these tests: API keys on, with API_KEY as the admin key. */
export const WITH_API_KEY = { authMode: 'api-key', adminApiKey: API_KEY } as const;

/**
 * The service's clock in these tests, standing still: "today" is the same day
 * for the service and the test whenever they run. It lies before any
 * machine's own time: the delivery worker, which runs on that, finds the test
 * pings the service queues already due.
 */
export const CLOCK = testClock('2026-03-02T09:30:00.000Z');
export const ON_THE_TEST_CLOCK = { now: CLOCK.now };

/** Listens before the suite's tests; `clientOf` makes a client of it (retries without long waits). */
export function listening(api: Api) {
  let baseUrl = '';
  before(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  });
  return {
    /** The service's address, once it listens. */
    baseUrl: () => baseUrl,
    clientOf: (options: Partial<ClientOptions> = {}) =>
      createClient({ baseUrl, apiKey: API_KEY, retries: { baseDelayMs: 1 }, ...options }),
  };
}

/** The problem the call throws, checked to be a ProblemError. */
export async function problemOf(call: Promise<unknown>): Promise<ProblemError> {
  const error = await call.then(
    () => assert.fail('expected a ProblemError'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof ProblemError, String(error));
  return error;
}
