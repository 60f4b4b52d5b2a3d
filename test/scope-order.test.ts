/**
 * Issue 25, "exact answers": a path that names no valid facility is 400
 * `validation_error` for every key, scoped or not; only a valid facility id
 * outside the key's scope is 403. The scope check reads the path as
 * validation does, so the two can never disagree.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { assertInvalid, assertProblem, describeEachDialect } from './harness.js';

const ADMIN_API_KEY = 'test-admin-key-scope-order';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

const MALFORMED = [
  'abc',
  '0',
  '-1',
  '%2D1',
  '1.5',
  '1e3',
  '+1',
  '%201',
  '9007199254740992',
  '12345678901234567',
];

describeEachDialect(
  'scope check after path validation',
  (api) => {
    let facility = 0;
    let scoped: Record<string, string> = {};
    let viewer: Record<string, string> = {};

    before(async () => {
      facility = api.newFacility();
      const make = (role: 'admin' | 'viewer') =>
        createApiKey(api.app.db, { name: `${role} of ${facility}`, role, facilityIds: [facility] });
      scoped = bearer((await make('admin')).secret);
      viewer = bearer((await make('viewer')).secret);
    });

    test('a scoped key on a malformed facility id gets 400 naming facility_id, not 403', async () => {
      for (const id of MALFORMED) {
        for (const [method, path, body] of [
          ['GET', 'plans', undefined],
          ['POST', 'plans', { name: 'Gold' }],
          ['GET', 'members/1', undefined],
          ['PATCH', 'policy', { booking_window_days: 3 }],
        ] as const) {
          const response = await api.request(method, `/admin/facilities/${id}/${path}`, body, scoped);
          assertInvalid(response, 'facility_id');
        }
        assertInvalid(await api.get(`/admin/facilities/${id}/plans`, viewer), 'facility_id');
      }
    });

    test('a viewer that writes is still 403 before validation, whatever the path', async () => {
      assertProblem(
        await api.post('/admin/facilities/abc/plans', { name: 'Gold' }, viewer),
        403,
        'forbidden',
      );
    });

    test('the scope reads an id as validation does: leading zeros and percent-encoding name the same facility', async () => {
      const encoded = [...String(facility)].map((digit) => `%3${digit}`).join('');
      for (const spelling of [`${facility}`, `000${facility}`, encoded]) {
        const inScope = await api.get(`/admin/facilities/${spelling}/policy`, scoped);
        assert.equal(inScope.status, 200, `${spelling}: ${inScope.text}`);
        assert.equal(inScope.body.facility_id, facility);
      }
      const other = facility + 1000;
      for (const spelling of [`${other}`, `00${other}`, `%3${String(other)[0]}${String(other).slice(1)}`]) {
        const outside = assertProblem(
          await api.get(`/admin/facilities/${spelling}/policy`, scoped),
          403,
          'forbidden',
        );
        assert.equal(outside.detail, `This API key has no access to facility ${other}`);
      }
    });

    test('an admin key for all facilities and a scoped key agree on which ids are valid', async () => {
      const admin = bearer(ADMIN_API_KEY);
      for (const id of [...MALFORMED, `${facility}`, `0${facility}`, '9007199254740991']) {
        const asAdmin = await api.get(`/admin/facilities/${id}/plans`, admin);
        const asScoped = await api.get(`/admin/facilities/${id}/plans`, scoped);
        if (asAdmin.status === 400) assertInvalid(asScoped, 'facility_id');
        else if (asAdmin.body.plans !== undefined && Number(id) === facility)
          assert.equal(asScoped.status, 200);
        else assertProblem(asScoped, 403, 'forbidden');
      }
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_API_KEY },
);
