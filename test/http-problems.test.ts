/**
 * Problem bodies (contract: "Errors"): exactly the problem+json fields, and for
 * validation errors the list of every problem with its location (body, query,
 * path), its field and a message a person can read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, type TestResponse } from './harness.js';
import {
  assertProblemShape,
  documentedRequest,
  fill,
  nameOf,
  OPERATIONS,
  resourceHelpers,
} from './http-rules.js';
import { inject } from './inject.js';

describeEachDialect('HTTP rules: problem bodies and validation errors', (api) => {
  const { facilityWithPlanAndMember, planNames } = resourceHelpers(api);

  test('problem bodies carry exactly type, title, status, detail, code, instance, request_id', async () => {
    const facility = api.newFacility();
    const cases: [TestResponse, number, string, string][] = [
      [
        await api.get(`/admin/facilities/${facility}/plans/424242`),
        404,
        'plan_not_found',
        `/admin/facilities/${facility}/plans/424242`,
      ],
      [
        await api.get(`/admin/facilities/${facility}/members/424242?x=1`),
        400,
        'validation_error',
        `/admin/facilities/${facility}/members/424242`,
      ],
      [await api.get('/nowhere?q=1'), 404, 'not_found', '/nowhere'],
      [
        await api.request('POST', '/admin/plan-templates?a=b'),
        405,
        'method_not_allowed',
        '/admin/plan-templates',
      ],
      [
        await api.post(`/admin/facilities/${facility}/plans?z=1`, '{'),
        400,
        'malformed_json',
        `/admin/facilities/${facility}/plans`,
      ],
    ];
    for (const [response, status, code, instance] of cases) {
      assertProblem(response, status, code);
      assertProblemShape(response, instance);
      assert.equal(response.body.type, `urn:facility-admin:problem:${code}`);
    }
  });

  test('a validation error lists every body problem with location body and a JSON pointer', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const response = await api.post(url, {
      price_amount: -1,
      currency: 'usd',
      billing_period: 'daily',
      duration_days: 0,
      is_active: 'yes',
      id: 3,
      colour: 'red',
    });
    const body = assertInvalid(
      response,
      '/name',
      '/price_amount',
      '/currency',
      '/billing_period',
      '/duration_days',
      '/is_active',
      '/id',
      '/colour',
    );
    assertProblemShape(response, url);
    for (const error of body.errors) {
      assert.deepEqual(Object.keys(error).sort(), ['field', 'location', 'message']);
      assert.equal(error.location, 'body');
      assert.equal(typeof error.message, 'string');
      assert.ok(error.message.length > 0);
    }
    assert.ok(body.errors.length >= 8);
    assert.deepEqual(await planNames(facility), []);
  });

  test('a validation error lists every query problem with location query and the parameter name', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    const response = await api.get(`${url}?sport_id=x&status=gone&role=boss&plan_id=0&limit=0&cursor=bad`);
    const body = assertInvalid(response, 'sport_id', 'status', 'role', 'plan_id', 'limit');
    assertProblemShape(response, url);
    for (const error of body.errors) assert.equal(error.location, 'query', JSON.stringify(error));
  });

  test('an unknown query parameter is 400 naming it, on every operation, and writes nothing', async () => {
    const { facility, plan, member, ids } = await facilityWithPlanAndMember();
    // The health checks are left out: a load balancer's probe may carry whatever query it likes.
    for (const operation of OPERATIONS.filter((o) => o.secured)) {
      const request = documentedRequest(operation, ids);
      const response = await inject(api.app, { ...request, url: `${request.url}?include_inactve=true` });
      const problem = assertInvalid(response, 'include_inactve');
      assert.equal(problem.errors[0].location, 'query', nameOf(operation));
      assertProblemShape(response, fill(operation.path, ids));
    }
    assert.deepEqual(await planNames(facility), ['Plan']);
    assert.equal((await api.get(`/admin/facilities/${facility}/members/${member}`)).status, 200);
    assert.deepEqual((await api.get(`/admin/facilities/${facility}/plans/${plan}/entitlements`)).body, {
      entitlements: [],
    });
  });

  test('a path problem has location path', async () => {
    const response = await api.get('/admin/facilities/1/members/abc');
    const body = assertInvalid(response, 'member_id');
    assert.deepEqual(body.errors, [
      { location: 'path', field: 'member_id', message: body.errors[0].message },
    ]);
    assert.ok(body.detail.includes('member_id'), body.detail);
  });

  test('problems in path, query and body together are all listed', async () => {
    const response = await api.request('DELETE', '/admin/facilities/abc/plans/1?hard_delete=maybe');
    assertInvalid(response, 'facility_id', 'hard_delete');
    const patch = await api.patch('/admin/facilities/0/plans/1', { price_amount: -1 });
    assertInvalid(patch, 'facility_id', '/price_amount');
  });

  test('a value that breaks a pattern is explained in words, not with the regular expression', async () => {
    const facility = api.newFacility();
    const response = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: '   ',
      phone: 'call me',
    });
    const body = assertInvalid(response, '/first_name', '/phone');
    const messages = Object.fromEntries(
      body.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    assert.equal(messages['/phone'], 'may hold only digits, spaces and + - ( )');
    assert.equal(messages['/first_name'], 'must not be empty');
    assert.equal(body.errors.filter((e: { field: string }) => e.field === '/first_name').length, 1);
    const list = await api.get(`/admin/facilities/${facility}/members?status=gone`);
    assert.match(assertInvalid(list, 'status').errors[0].message, /^must be one or more of pending, active/);
  });
});
