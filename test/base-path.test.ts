/**
 * BASE_PATH (README, Configuration; docs/decisions.md, Routing): every route
 * is served under the prefix, the URLs the service hands out include it, and
 * nothing answers outside it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from './harness.js';

const BASE = '/api';

describeEachDialect(
  'BASE_PATH',
  (api) => {
    const plansPath = (facility: number) => `/admin/facilities/${facility}/plans`;

    test('the API is served under BASE_PATH', async () => {
      const facility = api.newFacility();
      const policy = await api.get(`${BASE}/admin/facilities/${facility}/policy`);
      assert.equal(policy.status, 200, policy.text);
      assert.equal(policy.body.facility_id, facility);
      const list = await api.get(`${BASE}${plansPath(facility)}`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body, { plans: [], next_cursor: null });
    });

    test("a create's Location includes BASE_PATH and leads to the new resource", async () => {
      const facility = api.newFacility();
      for (const [collection, body] of [
        [plansPath(facility), { name: 'Gold' }],
        [`/admin/facilities/${facility}/members`, { first_name: 'Ann' }],
      ] as const) {
        const created = await api.post(`${BASE}${collection}`, body);
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers.location, `${BASE}${collection}/${created.body.id}`);
        const read = await api.get(String(created.headers.location));
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(read.body, created.body);
      }
    });

    test('/healthz and /openapi.json are served under BASE_PATH; the OpenAPI paths include it', async () => {
      assert.deepEqual((await api.get(`${BASE}/healthz`)).body, { status: 'ok' });
      const doc = await api.get(`${BASE}/openapi.json`);
      assert.equal(doc.status, 200, doc.text);
      const paths = Object.keys(doc.body.paths);
      assert.ok(paths.includes(`${BASE}/admin/facilities/{facility_id}/plans`), paths.join(', '));
      assert.ok(
        paths.every((path) => path.startsWith(`${BASE}/`)),
        paths.join(', '),
      );
    });

    test('the unprefixed paths are 404 not_found and write nothing', async () => {
      const facility = api.newFacility();
      assertProblem(await api.get(plansPath(facility)), 404, 'not_found');
      assertProblem(await api.post(plansPath(facility), { name: 'Gold' }), 404, 'not_found');
      assertProblem(await api.get('/healthz'), 404, 'not_found');
      assertProblem(await api.get('/openapi.json'), 404, 'not_found');
      const list = await api.get(`${BASE}${plansPath(facility)}?include_inactive=true`);
      assert.deepEqual(list.body.plans, []);
    });

    test("a problem's instance is the request path with BASE_PATH", async () => {
      const facility = api.newFacility();
      const path = `${BASE}${plansPath(facility)}/99999999`;
      const missing = await api.get(path);
      assertProblem(missing, 404, 'plan_not_found');
      assert.equal(missing.body.instance, path);
    });
  },
  { basePath: BASE },
);
