/**
 * Property-based robustness: every operation of the OpenAPI document
 * (test/api-document.ts) gets random and malformed input (test/fuzz/cases.ts),
 * sent to what its example request (test/operation-examples.ts) made.
 * Whatever comes in, the service never answers 5xx, every error is
 * problem+json whose `status` is the HTTP status, some cases get an exact
 * answer (test/fuzz/expected.ts), and a rejected request writes nothing: every
 * row of the facility (test/facility-state.ts) is as it was.
 *
 * FUZZ_RUNS sets the runs per operation (default 150); FUZZ_SEED replays a
 * failure that fast-check reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { OPERATIONS } from './api-document.js';
import { facilityState } from './facility-state.js';
import { build, casesFor } from './fuzz/cases.js';
import { checkExpected } from './fuzz/expected.js';
import { fuzzTarget } from './fuzz/target.js';
import { MAX_ERRORS } from './fuzz/values.js';
import { assertProblem, describeEachDialect, type TestResponse } from './harness.js';
import { inject } from './inject.js';
import { exampleRequest, finishedImport } from './operation-examples.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** What every answer must be, whatever was sent. */
function assertWellFormed(response: TestResponse, where: string): void {
  assert.ok(response.status < 500, `${where} -> ${response.status} ${response.text}`);
  if (response.status >= 400) {
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/, where);
    assert.equal(response.body?.status, response.status, `${where}: ${response.text}`);
    assert.equal(typeof response.body.code, 'string');
    assert.equal(response.body.type, `urn:facility-admin:problem:${response.body.code}`);
    assert.equal(typeof response.body.detail, 'string');
    assert.equal(typeof response.body.request_id, 'string');
    if (response.body.errors !== undefined) {
      assert.ok(response.body.errors.length <= MAX_ERRORS, where);
      if (response.body.errors_omitted !== undefined) {
        assert.equal(response.body.errors.length, MAX_ERRORS, where);
        assert.ok(response.body.errors_omitted >= 1, where);
      }
    }
  } else if (response.status === 204) {
    assert.equal(response.text, '', where);
  } else if (
    response.status !== 200 ||
    !response.headers['content-type']?.toString().startsWith('text/csv')
  ) {
    assert.match(String(response.headers['content-type']), /^application\/json/, where);
    assert.notEqual(response.body, undefined, where);
  }
}

describeEachDialect(
  'robustness',
  (api) => {
    for (const operation of OPERATIONS) {
      test(`${operation.operationId} (${operation.method} ${operation.path}): random and malformed input`, async (t) => {
        const facility = api.newFacility();
        const target = fuzzTarget(operation, await exampleRequest(operation, { api, facility, auth: {} }));
        let before = await facilityState(api.app, facility);
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(casesFor(target), async (c) => {
            const sent = build(target, c);
            const response = await inject(api.app, sent);
            const where = `${sent.method} ${sent.url.slice(0, 300)} ${JSON.stringify(sent.headers)} ${String(sent.payload ?? '').slice(0, 300)}`;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            assertWellFormed(response, where);
            checkExpected(target, c, response);
            // An accepted job (an import) writes after its answer: it is followed to its end first.
            if (response.status === 202 && response.headers.location !== undefined) {
              await finishedImport({ api, facility, auth: {} }, response);
            }
            const after = await facilityState(api.app, facility);
            if (response.status >= 400) {
              assert.equal(
                after,
                before,
                `${where} was rejected (${response.status}) but changed the facility`,
              );
            }
            before = after;
          }),
          { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
        );
        const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
        t.diagnostic(`statuses ${seen.join(', ')}`);
        // The fuzzing reached the validation layer, not only one early rejection (the health checks validate nothing).
        if (operation.secured) assert.ok((statuses.get(400) ?? 0) > 0, `no 400 among ${seen.join(', ')}`);
      });
    }

    test('an entitlement value too large to be a finite number is 400 and not stored', async () => {
      const facility = api.newFacility();
      const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Plan' });
      const url = `/admin/facilities/${facility}/plans/${plan.body.id}/entitlements`;
      await api.put(`${url}/guest_passes`, { value: 2 });
      const json = { 'content-type': 'application/json' };
      const one = await inject(api.app, {
        method: 'PUT',
        url: `${url}/visits`,
        headers: json,
        payload: '{"value": 1e400}',
      });
      assertProblem(one, 400, 'validation_error');
      const all = await inject(api.app, {
        method: 'PUT',
        url,
        headers: json,
        payload: '{"entitlements": {"visits": -1e400}}',
      });
      assertProblem(all, 400, 'validation_error');
      const read = await api.get(url);
      assert.deepEqual(read.body, { entitlements: [{ key: 'guest_passes', value: 2 }] });
    });
  },
  // No rate limit: thousands of requests on purpose. No long poll: a read with `wait` is 429 at once.
  { rateLimitPerMinute: 0, eventsMaxWaiters: 0 },
);
