/**
 * The "Access" section of the contract: every endpoint of the spec against
 * every kind of caller, and scope isolation through paths and body fields.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { type Api, assertProblem, describeEachDialect } from './harness.js';

const ADMIN_API_KEY = 'test-admin-key-0123456789';

interface Endpoint {
  name: string;
  write: boolean;
  /** Makes a fresh target in facility `f` and returns the request to send. */
  prepare(
    api: Api,
    f: number,
    auth: Record<string, string>,
  ): Promise<{ method: string; url: string; body?: unknown }>;
}

async function makePlan(api: Api, f: number, auth: Record<string, string>) {
  const plan = await api.post(`/admin/facilities/${f}/plans`, { name: `Plan ${Math.random()}` }, auth);
  assert.equal(plan.status, 201, plan.text);
  await api.put(`/admin/facilities/${f}/plans/${plan.body.id}/entitlements/guest_passes`, { value: 2 }, auth);
  return plan.body.id as number;
}

async function makeMember(api: Api, f: number, auth: Record<string, string>) {
  const member = await api.post(`/admin/facilities/${f}/members`, { first_name: 'Ann' }, auth);
  assert.equal(member.status, 201, member.text);
  return member.body.id as number;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'create plan',
    write: true,
    prepare: async (_a, f) => ({
      method: 'POST',
      url: `/admin/facilities/${f}/plans`,
      body: { name: `P${Math.random()}` },
    }),
  },
  {
    name: 'list plans',
    write: false,
    prepare: async (_a, f) => ({ method: 'GET', url: `/admin/facilities/${f}/plans` }),
  },
  {
    name: 'read plan',
    write: false,
    prepare: async (a, f, h) => ({
      method: 'GET',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}`,
    }),
  },
  {
    name: 'update plan',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'PATCH',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}`,
      body: { price_amount: 5 },
    }),
  },
  {
    name: 'delete plan',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'DELETE',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}`,
    }),
  },
  {
    name: 'list templates',
    write: false,
    prepare: async () => ({ method: 'GET', url: '/admin/plan-templates' }),
  },
  {
    name: 'read entitlements',
    write: false,
    prepare: async (a, f, h) => ({
      method: 'GET',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}/entitlements`,
    }),
  },
  {
    name: 'replace entitlements',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'PUT',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}/entitlements`,
      body: { entitlements: { a: 1 } },
    }),
  },
  {
    name: 'set entitlement',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'PUT',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}/entitlements/b`,
      body: { value: true },
    }),
  },
  {
    name: 'delete entitlement',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'DELETE',
      url: `/admin/facilities/${f}/plans/${await makePlan(a, f, h)}/entitlements/guest_passes`,
    }),
  },
  {
    name: 'create member',
    write: true,
    prepare: async (_a, f) => ({
      method: 'POST',
      url: `/admin/facilities/${f}/members`,
      body: { first_name: 'Bo' },
    }),
  },
  {
    name: 'list members',
    write: false,
    prepare: async (_a, f) => ({ method: 'GET', url: `/admin/facilities/${f}/members` }),
  },
  {
    name: 'read member',
    write: false,
    prepare: async (a, f, h) => ({
      method: 'GET',
      url: `/admin/facilities/${f}/members/${await makeMember(a, f, h)}`,
    }),
  },
  {
    name: 'update member',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'PATCH',
      url: `/admin/facilities/${f}/members/${await makeMember(a, f, h)}`,
      body: { notes: 'x' },
    }),
  },
  {
    name: 'delete member',
    write: true,
    prepare: async (a, f, h) => ({
      method: 'DELETE',
      url: `/admin/facilities/${f}/members/${await makeMember(a, f, h)}`,
    }),
  },
  {
    name: 'read policy',
    write: false,
    prepare: async (_a, f) => ({ method: 'GET', url: `/admin/facilities/${f}/policy` }),
  },
  {
    name: 'update policy',
    write: true,
    prepare: async (_a, f) => ({
      method: 'PATCH',
      url: `/admin/facilities/${f}/policy`,
      body: { booking_window_days: 3 },
    }),
  },
];

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describeEachDialect(
  'access',
  (api) => {
    const admin = bearer(ADMIN_API_KEY);
    const keys = {} as Record<'scoped' | 'viewer' | 'revoked' | 'otherFacility', Record<string, string>>;
    let facility = 0;
    let otherFacility = 0;

    before(async () => {
      facility = api.newFacility();
      otherFacility = api.newFacility();
      const make = (role: 'admin' | 'viewer', facilityIds: number[]) =>
        createApiKey(api.app.db, { name: `${role} ${facilityIds}`, role, facilityIds });
      keys.scoped = bearer((await make('admin', [facility])).secret);
      keys.viewer = bearer((await make('viewer', [facility])).secret);
      keys.otherFacility = bearer((await make('admin', [otherFacility])).secret);
      const revoked = await make('admin', [facility]);
      await revokeApiKey(api.app.db, revoked.key.id, new Date().toISOString());
      keys.revoked = bearer(revoked.secret);
    });

    for (const endpoint of ENDPOINTS) {
      test(`${endpoint.name}: no key, a garbage key and a revoked key are 401 with WWW-Authenticate`, async () => {
        const { method, url, body } = await endpoint.prepare(api, facility, admin);
        for (const headers of [{}, bearer('garbage'), { authorization: 'Basic abc' }, keys.revoked]) {
          const response = await api.request(method, url, body, headers);
          assertProblem(response, 401, 'unauthenticated');
          assert.match(String(response.headers['www-authenticate']), /^Bearer/);
        }
      });

      test(`${endpoint.name}: an admin key of the facility succeeds`, async () => {
        const { method, url, body } = await endpoint.prepare(api, facility, admin);
        const response = await api.request(method, url, body, keys.scoped);
        assert.ok(response.status >= 200 && response.status < 300, `${response.status} ${response.text}`);
      });

      test(`${endpoint.name}: a viewer key ${endpoint.write ? 'is refused with 403' : 'may read'}`, async () => {
        const { method, url, body } = await endpoint.prepare(api, facility, admin);
        const response = await api.request(method, url, body, keys.viewer);
        if (endpoint.write) assertProblem(response, 403, 'forbidden');
        else assert.equal(response.status, 200, response.text);
      });

      if (endpoint.name !== 'list templates') {
        test(`${endpoint.name}: a key scoped to another facility gets 403`, async () => {
          const { method, url, body } = await endpoint.prepare(api, facility, admin);
          assertProblem(await api.request(method, url, body, keys.otherFacility), 403, 'forbidden');
        });
      }
    }

    test('outside its scope, an existing plan and a missing one get the same answer', async () => {
      const plan = await makePlan(api, facility, admin);
      const existing = await api.get(`/admin/facilities/${facility}/plans/${plan}`, keys.otherFacility);
      const missing = await api.get(`/admin/facilities/${facility}/plans/987654321`, keys.otherFacility);
      assert.equal(existing.status, 403);
      assert.equal(missing.status, 403);
      assert.equal(existing.body.detail, missing.body.detail);
    });

    test('a bad key is refused before the path is looked at: unknown plan still 401', async () => {
      assertProblem(
        await api.get(`/admin/facilities/${facility}/plans/987654321`, bearer('nope')),
        401,
        'unauthenticated',
      );
    });

    test('a scoped key cannot reach another facility through body fields', async () => {
      const foreignPlan = await makePlan(api, otherFacility, admin);
      const response = await api.post(
        `/admin/facilities/${facility}/members`,
        { first_name: 'X', plan_id: foreignPlan },
        keys.scoped,
      );
      assertProblem(response, 422, 'invalid_plan');
      const viaPath = await api.get(`/admin/facilities/${facility}/plans/${foreignPlan}`, keys.scoped);
      assertProblem(viaPath, 404, 'plan_not_found');
    });

    test('unknown and revoked keys get the same message', async () => {
      const unknown = await api.get(`/admin/facilities/${facility}/plans`, bearer(`fa_${'x'.repeat(43)}`));
      const revoked = await api.get(`/admin/facilities/${facility}/plans`, keys.revoked);
      assert.equal(unknown.body.detail, revoked.body.detail);
    });

    test('health checks, /openapi.json and /docs need no key', async () => {
      assert.equal((await api.get('/openapi.json')).status, 200);
      assert.equal((await api.get('/healthz')).status, 200);
      assert.equal((await api.get('/readyz')).status, 200);
      assert.ok([200, 302].includes((await api.get('/docs')).status));
    });

    test('the OpenAPI document declares the bearer scheme and 401/403 on every operation', async () => {
      const doc = (await api.get('/openapi.json')).body;
      assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
      assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
      type Operation = { responses: Record<string, unknown>; security?: unknown[] };
      for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (operation.security?.length === 0) continue; // open: health checks
          assert.ok(operation.responses['401'] && operation.responses['403'], `${method} ${path}`);
        }
      }
    });
  },
  // Hundreds of refused requests from one address, on purpose: their throttle is tested in auth-failure-limit.test.ts.
  { authMode: 'api-key', adminApiKey: ADMIN_API_KEY, authFailureLimit: 0 },
);
