/**
 * Request bodies (contract: "General" and "Errors"): a body must be a JSON
 * object, however deep or oddly named its content; one over the default
 * limit (256 KiB) is 413; a GET ignores a body.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from './harness.js';
import {
  assertProblemShape,
  fill,
  JSON_BODY_OPERATIONS,
  nameOf,
  raw,
  resourceHelpers,
} from './http-rules.js';

describeEachDialect('HTTP rules: body shape and size', (api) => {
  const { facilityWithPlanAndMember, planNames } = resourceHelpers(api);

  test('a JSON body that is not an object is 400 validation_error, on every operation with a body', async () => {
    const { facility, plan, ids } = await facilityWithPlanAndMember();
    for (const operation of JSON_BODY_OPERATIONS) {
      const url = fill(operation.path, ids);
      for (const payload of ['[]', '[{"name":"x"}]', '"text"', '5', '-1.5', 'true', 'null']) {
        const response = await raw(api, operation.method, url, {
          payload,
          headers: { 'content-type': 'application/json' },
        });
        const body = assertInvalid(response, '');
        assert.equal(body.errors[0].location, 'body', `${nameOf(operation)} with ${payload}`);
        assertProblemShape(response, url);
      }
    }
    assert.deepEqual(await planNames(facility), ['Plan']);
    assert.deepEqual((await api.get(`/admin/facilities/${facility}/plans/${plan}/entitlements`)).body, {
      entitlements: [],
    });
  });

  test('a body nested 10,000 deep is 400 validation_error, not 500, on every operation with a body', async () => {
    const { ids } = await facilityWithPlanAndMember();
    const payload = `{"deep":${'['.repeat(10_000)}"x"${']'.repeat(10_000)}}`;
    for (const operation of JSON_BODY_OPERATIONS) {
      const url = fill(operation.path, ids);
      const response = await raw(api, operation.method, url, {
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, 400, `${nameOf(operation)}: ${response.text}`);
      assertProblem(response, 400, 'validation_error');
    }
  });

  test('a body naming __proto__ or constructor is 400 validation_error for an unknown field', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const proto = await api.post(url, '{"name":"Proto","__proto__":{"is_active":false}}');
    assertInvalid(proto, '/__proto__');
    const ctor = await api.post(url, '{"name":"Ctor","constructor":{"prototype":{"x":1}}}');
    assertInvalid(ctor, '/constructor');
    assert.deepEqual(await planNames(facility), []);
  });

  test('a body over 256 KiB is 413 payload_too_large, one under it is read', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const over = JSON.stringify({ name: 'Too big', description: 'x'.repeat(256 * 1024) });
    const tooLarge = await raw(api, 'POST', url, {
      payload: over,
      headers: { 'content-type': 'application/json', 'x-request-id': 'too-large-1' },
    });
    assertProblem(tooLarge, 413, 'payload_too_large');
    assertProblemShape(tooLarge, url);
    assert.equal(tooLarge.headers['x-request-id'], 'too-large-1');
    // Just under the limit: read and validated (description is at most 2000 characters).
    const under = JSON.stringify({ name: 'Big', description: 'x'.repeat(250 * 1024) });
    assertInvalid(await api.post(url, under), '/description');
    assert.deepEqual(await planNames(facility), []);
    const policy = await api.patch(`/admin/facilities/${facility}/policy`, {
      timezone: 'x'.repeat(300 * 1024),
    });
    assertProblem(policy, 413, 'payload_too_large');
  });

  test('a body with a request that takes none is ignored for GET', async () => {
    const facility = api.newFacility();
    const response = await api.request('GET', `/admin/facilities/${facility}/plans`, { anything: 1 });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { plans: [], next_cursor: null });
  });
});
