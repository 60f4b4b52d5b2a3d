import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
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
        key_name: 'ADMIN_API_KEY',
        role: 'admin',
        facility_ids: null,
      });
    });

    test('describes a viewer key with its facilities, ascending', async () => {
      const { secret } = await createApiKey(api.app.db, {
        name: 'front desk',
        role: 'viewer',
        facilityIds: [9, 4],
      });
      const response = await api.get('/admin/session', { authorization: `Bearer ${secret}` });
      assert.deepEqual(response.body, {
        auth_mode: 'api-key',
        key_name: 'front desk',
        role: 'viewer',
        facility_ids: [4, 9],
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
      key_name: 'AUTH_MODE=none',
      role: 'admin',
      facility_ids: null,
    });
  });
});
