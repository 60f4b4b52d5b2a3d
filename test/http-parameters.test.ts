/**
 * Path and query parameters (contract: "General"): ids are positive integers up
 * to 2^53-1 on every endpoint, in the path and in the query; the boolean
 * parameters take only true or false.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from './harness.js';
import { documentedRequest, MAX_SAFE, nameOf, OPERATIONS, resourceHelpers } from './http-rules.js';
import { inject } from './inject.js';

describeEachDialect('HTTP rules: path ids and query parameters', (api) => {
  const { newPlan, newMember, planNames } = resourceHelpers(api);

  test('a path id that is not a positive integer up to 2^53-1 is 400 naming the parameter, on every operation', async () => {
    const bad = [
      'abc',
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '9007199254740992',
      '1'.repeat(300),
      '%20',
      '1%201',
      '+1',
      ' 1',
    ];
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    const good: Record<string, string> = {
      facility_id: String(facility),
      plan_id: String(plan),
      member_id: String(member),
    };
    let checked = 0;
    let expected = 0;
    for (const operation of OPERATIONS) {
      const params = operation.pathParameters.filter((name) => name.endsWith('_id'));
      expected += params.length * bad.length;
      for (const param of params) {
        for (const value of bad) {
          const request = documentedRequest(operation, {
            ...good,
            [param]: value.startsWith(' ') ? encodeURIComponent(value) : value,
          });
          const response = await inject(api.app, request);
          const problem = assertInvalid(response, param);
          const error = problem.errors.find((e: { field: string }) => e.field === param);
          assert.equal(error.location, 'path', `${nameOf(operation)} ${param}=${value}`);
          checked++;
        }
      }
    }
    // Every id of every documented path: facility_id on all but the global operations, and each resource's own.
    assert.equal(checked, expected);
    assert.ok(checked >= bad.length * 26, `${checked} checks`);
    // Nothing was created by the rejected writes.
    assert.deepEqual(await planNames(facility), ['Plan']);
    const members = await api.get(`/admin/facilities/${facility}/members`);
    assert.equal(members.body.members.length, 1);
  });

  test('the largest id, 2^53-1, is accepted', async () => {
    const policy = await api.get(`/admin/facilities/${MAX_SAFE}/policy`);
    assert.equal(policy.status, 200);
    assert.equal(policy.body.facility_id, Number(MAX_SAFE));
    const facility = api.newFacility();
    assertProblem(await api.get(`/admin/facilities/${facility}/plans/${MAX_SAFE}`), 404, 'plan_not_found');
    assertProblem(
      await api.get(`/admin/facilities/${facility}/members/${MAX_SAFE}`),
      404,
      'member_not_found',
    );
    assertProblem(
      await api.get(`/admin/facilities/${facility}/plans/${MAX_SAFE}/entitlements`),
      404,
      'plan_not_found',
    );
  });

  test('numeric query parameters follow the same rule', async () => {
    const facility = api.newFacility();
    for (const value of ['abc', '0', '-1', '1.5', '1e3', '0x10', '9007199254740992', '1'.repeat(300), '']) {
      assertInvalid(await api.get(`/admin/facilities/${facility}/plans?sport_id=${value}`), 'sport_id');
      assertInvalid(await api.get(`/admin/facilities/${facility}/members?plan_id=${value}`), 'plan_id');
      assertInvalid(await api.get(`/admin/facilities/${facility}/members?sport_id=${value}`), 'sport_id');
    }
    const ok = await api.get(`/admin/facilities/${facility}/plans?sport_id=${MAX_SAFE}`);
    assert.deepEqual(ok.body, { plans: [], next_cursor: null });
  });

  test('include_inactive takes only true or false', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility, 'Archived');
    await newPlan(facility, 'Active');
    assert.equal((await api.delete(`/admin/facilities/${facility}/plans/${plan}`)).status, 204);
    const url = `/admin/facilities/${facility}/plans`;
    const names = async (query: string) =>
      (await api.get(`${url}?${query}`)).body.plans.map((p: { name: string }) => p.name);
    assert.deepEqual(await names('include_inactive=true'), ['Archived', 'Active']);
    assert.deepEqual(await names('include_inactive=false'), ['Active']);
    for (const value of ['TRUE', 'False', '1', '0', 'yes', 'no', 'on', '', 't', 'true%20', 'null']) {
      const body = assertInvalid(await api.get(`${url}?include_inactive=${value}`), 'include_inactive');
      assert.equal(body.errors[0].location, 'query');
    }
    assertInvalid(await api.get(`${url}?include_inactive=true&include_inactive=true`), 'include_inactive');
  });

  test('hard_delete takes only true or false, on plans and members', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    for (const resource of [`plans/${plan}`, `members/${member}`]) {
      const url = `/admin/facilities/${facility}/${resource}`;
      for (const value of ['TRUE', '1', 'yes', '', 'false%20', 'no']) {
        const body = assertInvalid(await api.delete(`${url}?hard_delete=${value}`), 'hard_delete');
        assert.equal(body.errors[0].location, 'query');
        const still = await api.get(url);
        assert.equal(still.status, 200);
        assert.equal(still.body.deleted_at, null, `${url} untouched after hard_delete=${value}`);
      }
      assert.equal((await api.delete(`${url}?hard_delete=false`)).status, 204);
      const soft = await api.get(url);
      assert.equal(soft.status, 200, 'hard_delete=false is a soft delete');
      assert.notEqual(soft.body.deleted_at, null);
    }
    const member2 = await newMember(facility);
    const url = `/admin/facilities/${facility}/members/${member2}`;
    assert.equal((await api.delete(`${url}?hard_delete=true`)).status, 204);
    assertProblem(await api.get(url), 404, 'member_not_found');
  });
});
