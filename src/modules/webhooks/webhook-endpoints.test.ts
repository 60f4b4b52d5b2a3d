/**
 * Webhook endpoints: CRUD per facility, the signing secret shown once and
 * stored encrypted, rotation, ETags and If-Match, URL rules, admin keys only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';

const f = (facility: number) => `/admin/facilities/${facility}/webhook-endpoints`;
const url = 'https://hooks.example.com/in';

/** The app's clock: a rotation's previous secret expires a day after it. */
const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'webhook endpoints',
  (api) => {
    test('create answers 201 with a whsec_ secret once; reads never show it, and it is stored encrypted', async () => {
      const facility = api.newFacility();
      const created = await api.post(f(facility), { url, types: ['member.created'], description: 'doors' });
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.equal(created.headers.location, `${f(facility)}/${created.body.id}`);
      const { secret, ...endpoint } = created.body;
      assert.deepEqual(endpoint, {
        id: created.body.id,
        facility_id: facility,
        url,
        description: 'doors',
        types: ['member.created'],
        enabled: true,
        disabled_reason: null,
        created_at: created.body.created_at,
        updated_at: created.body.updated_at,
      });
      assert.deepEqual((await api.get(`${f(facility)}/${endpoint.id}`)).body, endpoint);
      assert.deepEqual((await api.get(f(facility))).body, { webhook_endpoints: [endpoint] });
      const stored = await api.app.db
        .selectFrom('webhook_endpoints')
        .select('secret')
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret.includes(secret.slice(6)), 'the stored secret is not the secret');
      assert.match(stored.secret, /^v1\./);
      assert.equal(api.app.secrets?.open(stored.secret), secret);
    });

    test('PATCH changes the fields sent; DELETE removes the endpoint (404 afterwards)', async () => {
      const facility = api.newFacility();
      const { body } = await api.post(f(facility), { url });
      const patched = await api.patch(`${f(facility)}/${body.id}`, {
        enabled: false,
        types: ['plan.created'],
      });
      assert.equal(patched.status, 200);
      assert.deepEqual(
        [patched.body.enabled, patched.body.types, patched.body.url],
        [false, ['plan.created'], url],
      );
      assert.equal((await api.delete(`${f(facility)}/${body.id}`)).status, 204);
      assertProblem(await api.get(`${f(facility)}/${body.id}`), 404, 'webhook_endpoint_not_found');
      assertProblem(await api.delete(`${f(facility)}/${body.id}`), 404, 'webhook_endpoint_not_found');
    });

    test('reads carry an ETag; a PATCH or DELETE with a stale If-Match is 412 and changes nothing', async () => {
      const facility = api.newFacility();
      const created = await api.post(f(facility), { url });
      const one = `${f(facility)}/${created.body.id}`;
      const read = await api.get(one);
      const etag = String(read.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      assert.equal(created.headers.etag, etag);
      const patched = await api.patch(one, { description: 'doors' }, { 'if-match': etag });
      assert.equal(patched.status, 200, patched.text);
      assert.notEqual(patched.headers.etag, etag);
      assertProblem(
        await api.patch(one, { description: 'lights' }, { 'if-match': etag }),
        412,
        'precondition_failed',
      );
      assertProblem(await api.delete(one, { 'if-match': etag }), 412, 'precondition_failed');
      assert.equal((await api.get(one)).body.description, 'doors');
      const rotated = await api.post(`${one}/rotate-secret`);
      assert.notEqual(rotated.headers.etag, patched.headers.etag, 'a rotation is a write too');
      assert.equal((await api.get(one)).headers.etag, rotated.headers.etag);
      assert.equal((await api.delete(one, { 'if-match': String(rotated.headers.etag) })).status, 204);
      // As for plans and members: a resource that does not exist is 404, whatever the If-Match.
      assertProblem(
        await api.delete(one, { 'if-match': String(rotated.headers.etag) }),
        404,
        'webhook_endpoint_not_found',
      );
    });

    test("another facility's endpoint is 404", async () => {
      const [one, two] = [api.newFacility(), api.newFacility()];
      const { body } = await api.post(f(one), { url });
      assertProblem(await api.get(`${f(two)}/${body.id}`), 404, 'webhook_endpoint_not_found');
      assertProblem(await api.post(`${f(two)}/${body.id}/rotate-secret`), 404, 'webhook_endpoint_not_found');
    });

    test('rotate-secret answers a new secret and keeps the previous one for 24 hours', async () => {
      const facility = api.newFacility();
      const { body } = await api.post(f(facility), { url });
      const rotated = await api.post(`${f(facility)}/${body.id}/rotate-secret`);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.secret, body.secret);
      const row = await api.app.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      assert.equal(api.app.secrets?.open(row.previous_secret as string), body.secret);
      // Text on SQLite, a Date on PostgreSQL: the same instant, a day after the rotation.
      const expires = new Date(row.previous_secret_expires_at as string).getTime();
      assert.equal(expires - clock.now().getTime(), 24 * 3600_000);
    });

    test('a URL that is not https, or holds credentials, is 422 invalid_webhook_url; a bad type is 400', async () => {
      const facility = api.newFacility();
      const http = assertProblem(
        await api.post(f(facility), { url: 'http://hooks.example.com/in' }),
        422,
        'invalid_webhook_url',
      );
      assert.match(http.detail, /WEBHOOK_ALLOW_HTTP=true/, 'names the setting that allows http');
      assertProblem(
        await api.post(f(facility), { url: 'https://me:pw@hooks.example.com/' }),
        422,
        'invalid_webhook_url',
      );
      assertInvalid(await api.post(f(facility), { url, types: ['plan.exploded'] }), '/types/0');
      assertInvalid(await api.post(f(facility), { url: 'not a url' }), '/url');
    });

    test('every change of an endpoint is in the audit trail, by its key, with no secret', async () => {
      const facility = api.newFacility();
      const created = await api.post(f(facility), { url });
      const id = created.body.id;
      await api.patch(`${f(facility)}/${id}`, { description: 'doors' });
      const rotated = await api.post(`${f(facility)}/${id}/rotate-secret`);
      assert.equal((await api.delete(`${f(facility)}/${id}`)).status, 204);
      const trail = await api.get(
        `/admin/facilities/${facility}/audit-events?resource_type=webhook_endpoint`,
      );
      assert.equal(trail.status, 200, trail.text);
      const entries = trail.body.audit_events as {
        action: string;
        resource_id: string;
        api_key_name: string;
      }[];
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.resource_id]),
        [
          ['create', String(id)],
          ['update', String(id)],
          ['update', String(id)],
          ['delete', String(id)],
        ],
      );
      assert.ok(entries.every((entry) => entry.api_key_name === 'AUTH_MODE=none'));
      const text = JSON.stringify(entries);
      const sealed = await api.app.db.selectFrom('audit_events').select('changes').execute();
      for (const secret of [created.body.secret, rotated.body.secret]) {
        assert.ok(!text.includes(secret.slice(6)), 'no secret in the trail');
        assert.ok(!JSON.stringify(sealed).includes(secret.slice(6)));
      }
      assert.ok(!/"secret"|v1\./.test(text), 'not even sealed');
    });

    test('a facility has at most WEBHOOK_MAX_ENDPOINTS endpoints (409)', async () => {
      const facility = api.newFacility();
      for (let i = 0; i < 20; i++) assert.equal((await api.post(f(facility), { url })).status, 201);
      const refused = assertProblem(await api.post(f(facility), { url }), 409, 'webhook_endpoint_limit');
      assert.match(refused.detail, /\(WEBHOOK_MAX_ENDPOINTS\)/);
    });
  },
  {},
  { now: clock.now },
);

describeEachDialect(
  'webhook endpoints: access',
  (api) => {
    test('a viewer key may neither read nor manage webhook endpoints (403); an admin key may', async () => {
      const facility = api.newFacility();
      const viewer = await createApiKey(api.app.db, {
        name: `viewer-${facility}`,
        role: 'viewer',
        facilityIds: 'all',
      });
      const admin = { authorization: 'Bearer test-admin-key-0123456789' };
      const asViewer = { authorization: `Bearer ${viewer.secret}` };
      const created = await api.post(f(facility), { url }, admin);
      assert.equal(created.status, 201);
      assertProblem(await api.get(f(facility), asViewer), 403, 'forbidden');
      assertProblem(
        await api.get(`${f(facility)}/${created.body.id}/deliveries`, asViewer),
        403,
        'forbidden',
      );
      assertProblem(await api.post(f(facility), { url }, asViewer), 403, 'forbidden');
      assert.equal((await api.get(`/admin/facilities/${facility}/events`, asViewer)).status, 200);
    });
  },
  { authMode: 'api-key', adminApiKey: 'test-admin-key-0123456789' },
);
