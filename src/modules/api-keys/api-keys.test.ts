import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';

const ADMIN_KEY = 'api-keys-http-admin-key';
const admin = bearer(ADMIN_KEY);

describeEachDialect(
  'API keys over HTTP: owners list, create and revoke',
  (api) => {
    test('a door key, created like any other, is refused what a door does not do (403)', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        '/admin/api-keys',
        { name: 'front door', role: 'door', facility_ids: [facility] },
        admin,
      );
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.role, 'door');
      const door = bearer(created.body.secret);
      assertProblem(await api.get(`/admin/facilities/${facility}/members`, door), 403, 'forbidden');
      assertProblem(
        await api.post(`/admin/facilities/${facility}/members`, { first_name: 'X' }, door),
        403,
        'forbidden',
      );
      assertProblem(await api.get('/admin/session', door), 403, 'forbidden');
    });

    test('create answers the secret once; the key works; revoke ends it at once', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        '/admin/api-keys',
        { name: 'door', role: 'front_desk', facility_ids: [facility] },
        admin,
      );
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.secret, /^fa_/);
      assert.equal(created.headers['cache-control'], 'no-store');
      const key = bearer(created.body.secret);
      assert.equal(
        (await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Door' }, key)).status,
        201,
      );
      const listed = await api.get('/admin/api-keys?limit=1000', admin);
      const entry = listed.body.api_keys.find((item: { id: number }) => item.id === created.body.id);
      assert.deepEqual(
        { ...entry, created_at: undefined },
        {
          id: created.body.id,
          name: 'door',
          role: 'front_desk',
          facility_ids: [facility],
          created_at: undefined,
          revoked_at: null,
        },
      );
      assert.ok(!listed.text.includes(created.body.secret));
      assert.equal((await api.delete(`/admin/api-keys/${created.body.id}`, admin)).status, 204);
      assertProblem(await api.get(`/admin/facilities/${facility}/plans`, key), 401, 'unauthenticated');
      const trail = await api.get(`/admin/facilities/${facility}/audit-events?resource_type=api_key`, admin);
      assert.deepEqual(
        trail.body.audit_events.map((item: { action: string }) => item.action),
        ['create', 'delete'],
      );
      assert.ok(!trail.text.includes(created.body.secret));
    });

    test('an owner of one facility sees and makes only keys of that facility', async () => {
      const [mine, theirs] = [api.newFacility(), api.newFacility()];
      const owner = bearer(
        (await createApiKey(api.app.db, { name: 'local owner', role: 'owner', facilityIds: [mine] })).secret,
      );
      const other = await createApiKey(api.app.db, { name: 'other', role: 'viewer', facilityIds: [theirs] });
      assertProblem(
        await api.post('/admin/api-keys', { name: 'x', role: 'viewer', facility_ids: [theirs] }, owner),
        403,
        'forbidden',
      );
      assertProblem(
        await api.post('/admin/api-keys', { name: 'x', role: 'viewer', facility_ids: null }, owner),
        403,
        'forbidden',
      );
      const made = await api.post(
        '/admin/api-keys',
        { name: 'mine', role: 'viewer', facility_ids: [mine] },
        owner,
      );
      assert.equal(made.status, 201, made.text);
      const ids = (await api.get('/admin/api-keys?limit=1000', owner)).body.api_keys.map(
        (key: { id: number }) => key.id,
      );
      assert.ok(ids.includes(made.body.id) && !ids.includes(other.key.id));
      assertProblem(await api.delete(`/admin/api-keys/${other.key.id}`, owner), 404, 'api_key_not_found');
      for (const role of ['manager', 'front_desk', 'viewer'] as const) {
        const key = bearer((await createApiKey(api.app.db, { name: role, role, facilityIds: 'all' })).secret);
        assertProblem(await api.get('/admin/api-keys', key), 403, 'forbidden');
      }
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY },
);
