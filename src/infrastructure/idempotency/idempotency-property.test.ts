/**
 * Idempotency keys as a property: in any order, any mix of POSTs with a few
 * keys (each key's request body one of two variants) and without a key gets
 * what the first request with its key decided. The first creates (201); the
 * same key with the same body again is that same answer, replayed, creating
 * nothing; the same key with the other body is 422 idempotency_key_reused;
 * a POST without a key always creates. The plans there in the end are
 * exactly those of the first requests and of the requests without a key.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/** A request: a key (by number) or none, and which of its key's two bodies it sends. */
const request = fc.record({
  key: fc.option(fc.integer({ min: 0, max: 3 })),
  variant: fc.integer({ min: 0, max: 1 }),
});

describeEachDialect(
  'idempotency keys: any order, as a property',
  (api) => {
    test('each key is decided by its first request: replays of it, 422 for another body, nothing created twice', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (requests) => {
          run++;
          const url = `/admin/facilities/${api.newFacility()}/plans`;
          const first = new Map<
            number,
            { variant: number; status: number; body: unknown; location: unknown }
          >();
          const expected: string[] = [];
          for (const [i, { key, variant }] of requests.entries()) {
            // Names unique to a key and a body: no two requests of different keys ever conflict.
            const name = key === null ? `Unkeyed ${i}` : `Key ${key} body ${variant}`;
            const headers: Record<string, string> =
              key === null ? {} : { 'idempotency-key': `run-${run}-key-${key}` };
            const response = await api.post(url, { name, price_amount: 100 * variant }, headers);
            const decided = key === null ? undefined : first.get(key);
            if (decided === undefined) {
              assert.equal(response.status, 201, response.text);
              assert.equal(response.headers['idempotent-replayed'], undefined);
              expected.push(name);
              if (key !== null)
                first.set(key, {
                  variant,
                  status: 201,
                  body: response.body,
                  location: response.headers.location,
                });
            } else if (decided.variant === variant) {
              assert.deepEqual(
                [
                  response.status,
                  response.body,
                  response.headers.location,
                  response.headers['idempotent-replayed'],
                ],
                [decided.status, decided.body, decided.location, 'true'],
              );
            } else {
              assertProblem(response, 422, 'idempotency_key_reused');
            }
          }
          const plans = (await api.get(`${url}?include_inactive=true&limit=1000`)).body.plans;
          assert.deepEqual(
            plans.map((plan: { name: string }) => plan.name),
            expected,
          );
        }),
        { numRuns: RUNS },
      );
    });
  },
  // Hundreds of requests on purpose.
  { rateLimitPerMinute: 0 },
);
