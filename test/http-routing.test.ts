/**
 * Routing (contract: "General" and "Errors"): an unknown path is a problem+json
 * 404; a known path with a method it does not serve is a 405 whose Allow header
 * names the methods that are served; neither writes anything.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedMethods, HTTP_METHODS } from './api-document.js';
import { assertProblem, describeEachDialect } from './harness.js';
import { allowOf, assertProblemShape, fill, OPERATIONS, resourceHelpers } from './http-rules.js';

/** The documented paths whose template matches a concrete path (/members/export.csv is /members/{member_id} too). */
const templatesOf = (url: string) =>
  [...new Set(OPERATIONS.map((operation) => operation.path))].filter((path) =>
    new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`).test(url),
  );

describeEachDialect('HTTP rules: routing, 404 and 405', (api) => {
  const { newPlan, planNames } = resourceHelpers(api);

  test('an unknown route is 404 not_found as problem+json', async () => {
    for (const [method, url] of [
      ['GET', '/nope'],
      ['GET', '/admin'],
      ['GET', '/admin/facility'],
      ['GET', '/admin/facilities/1/nothing'],
      ['POST', '/admin/facilities/1/unknown'],
      ['GET', '/admin/plan-templates/1'],
      ['DELETE', '/admin/facilities/1/plans/1/entitlements/k/extra'],
      ['GET', '/admin/facilities/1/members/1/plans'],
    ]) {
      const response = await api.request(method, url);
      assertProblem(response, 404, 'not_found');
      assertProblemShape(response, url);
      assert.equal(response.headers.allow, undefined, `${method} ${url} has no Allow header`);
    }
  });

  test('the 404 instance is the path without the query', async () => {
    const response = await api.get('/nope/deeper?x=1&y=2');
    assertProblem(response, 404, 'not_found');
    assert.equal(response.body.instance, '/nope/deeper');
  });

  test('a wrong method on every documented path is 405 with an Allow header of the methods served there', async () => {
    let checked = 0;
    for (const path of new Set(OPERATIONS.map((operation) => operation.path))) {
      const url = fill(path);
      // A path that another template matches too is served by its methods as well.
      const allowed = [
        ...new Set(templatesOf(url).flatMap((template) => allowedMethods(OPERATIONS, template))),
      ].sort();
      for (const method of HTTP_METHODS.filter((m) => !allowed.includes(m))) {
        const response = await api.request(method, url);
        assert.equal(response.status, 405, `${method} ${url}: ${response.text}`);
        assertProblem(response, 405, 'method_not_allowed');
        assertProblemShape(response, url);
        assert.deepEqual(allowOf(response), allowed, `Allow for ${method} ${url}`);
        assert.ok(response.body.detail.includes(method), response.body.detail);
        checked++;
      }
    }
    assert.ok(checked >= 40, `${checked} wrong methods tried`);
  });

  test('405 does not depend on the id values and ignores the query for instance', async () => {
    const response = await api.request('PUT', '/admin/facilities/abc/plans?sport_id=1');
    assertProblem(response, 405, 'method_not_allowed');
    assert.deepEqual(allowOf(response), ['GET', 'HEAD', 'POST']);
    assert.equal(response.body.instance, '/admin/facilities/abc/plans');
  });

  test('every method an Allow header names is really served', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const planUrl = `/admin/facilities/${facility}/plans/${plan}`;
    const response = await api.request('POST', planUrl);
    assert.equal(response.status, 405);
    for (const method of allowOf(response)) {
      const probe = method === 'PATCH' ? await api.patch(planUrl, {}) : await api.request(method, planUrl);
      assert.notEqual(probe.status, 405, `${method} ${planUrl} answers ${probe.status}`);
      assert.notEqual(probe.status, 404, `${method} ${planUrl} answers ${probe.status}`);
    }
  });

  test('a 405 writes nothing', async () => {
    const facility = api.newFacility();
    await newPlan(facility, 'Existing');
    const response = await api.put(`/admin/facilities/${facility}/plans`, { name: 'Via PUT' });
    assertProblem(response, 405, 'method_not_allowed');
    assert.deepEqual(await planNames(facility), ['Existing']);
  });
});
