/**
 * The "Access" section of the contract beyond the matrix of every operation
 * and caller (test/access-matrix.test.ts): scope isolation through paths and
 * body fields, what a refusal says, and what needs no key.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { bearer } from './access-table.js';
import { type Api, assertProblem, describeEachDialect } from './harness.js';

const ADMIN_API_KEY = 'test-admin-key-0123456789';

async function makePlan(api: Api, f: number, auth: Record<string, string>) {
  const plan = await api.post(`/admin/facilities/${f}/plans`, { name: `Plan ${Math.random()}` }, auth);
  assert.equal(plan.status, 201, plan.text);
  return plan.body.id as number;
}

describeEachDialect(
  'access',
  (api) => {
    const admin = bearer(ADMIN_API_KEY);
    const keys = {} as Record<'scoped' | 'revoked' | 'otherFacility', Record<string, string>>;
    let facility = 0;
    let otherFacility = 0;

    before(async () => {
      facility = api.newFacility();
      otherFacility = api.newFacility();
      const make = (facilityIds: number[]) =>
        createApiKey(api.app.db, { name: `admin ${facilityIds}`, role: 'admin', facilityIds });
      keys.scoped = bearer((await make([facility])).secret);
      keys.otherFacility = bearer((await make([otherFacility])).secret);
      const revoked = await make([facility]);
      await revokeApiKey(api.app.db, revoked.key.id, new Date().toISOString());
      keys.revoked = bearer(revoked.secret);
    });

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
