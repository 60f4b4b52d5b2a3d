/**
 * The body limit is a setting (docs/security.md): BODY_LIMIT_BYTES moves the
 * point where a body is answered 413 payload_too_large.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from './harness.js';
import { assertProblemShape } from './http-rules.js';

describeEachDialect(
  'HTTP rules: a configured body limit',
  (api) => {
    test('BODY_LIMIT_BYTES sets the limit for 413', async () => {
      const facility = api.newFacility();
      const url = `/admin/facilities/${facility}/plans`;
      const small = await api.post(url, { name: 'Small', description: 'x'.repeat(500) });
      assert.equal(small.status, 201, small.text);
      const large = await api.post(url, { name: 'Large', description: 'x'.repeat(1500) });
      assert.match(assertProblem(large, 413, 'payload_too_large').detail, /\(BODY_LIMIT_BYTES\)/);
      assertProblemShape(large, url);
      const names = (await api.get(url)).body.plans.map((p: { name: string }) => p.name);
      assert.deepEqual(names, ['Small']);
    });
  },
  { bodyLimitBytes: 1024 },
);
