import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { PERMISSIONS } from '../../core/roles.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';

const ADMIN_KEY = 'session-test-admin-key';

describeEachDialect(
  'session: GET /admin/session',
  (api) => {
    test('describes an all-facilities admin key', async () => {
      const response = await api.get('/admin/session', { authorization: `Bearer ${ADMIN_KEY}` });
      assert.equal(response.status, 200);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.deepEqual(response.body, {
        auth_mode: 'api-key',
        actor: { type: 'api_key', id: 0, name: 'ADMIN_API_KEY' },
        key_name: 'ADMIN_API_KEY',
        role: 'admin',
        facility_ids: null,
        roles: [{ facility_id: null, role: 'admin', permissions: [...PERMISSIONS] }],
      });
    });

    test('describes a viewer key with its facilities, ascending', async () => {
      const { secret } = await createApiKey(api.app.db, {
        name: 'front desk',
        role: 'viewer',
        facilityIds: [9, 4],
      });
      const response = await api.get('/admin/session', { authorization: `Bearer ${secret}` });
      const viewer = { role: 'viewer', permissions: ['account', 'read'] };
      assert.deepEqual(response.body, {
        auth_mode: 'api-key',
        actor: { type: 'api_key', id: response.body.actor.id, name: 'front desk' },
        key_name: 'front desk',
        role: 'viewer',
        facility_ids: [4, 9],
        roles: [
          { facility_id: 4, ...viewer },
          { facility_id: 9, ...viewer },
        ],
      });
    });

    test('is 401 without a valid key', async () => {
      assertProblem(await api.get('/admin/session'), 401, 'unauthenticated');
      assertProblem(
        await api.get('/admin/session', { authorization: 'Bearer nope' }),
        401,
        'unauthenticated',
      );
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY },
);

describeEachDialect('session: with AUTH_MODE=none', (api) => {
  test('answers without a key that authentication is off', async () => {
    const response = await api.get('/admin/session');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      auth_mode: 'none',
      actor: { type: 'service', id: null, name: 'AUTH_MODE=none' },
      key_name: 'AUTH_MODE=none',
      role: 'admin',
      facility_ids: null,
      roles: [{ facility_id: null, role: 'admin', permissions: [...PERMISSIONS] }],
    });
  });
});
