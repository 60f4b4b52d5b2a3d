/**
 * The audit trail: every successful write, who made it, what changed (before
 * and after), read through GET /admin/facilities/{facility_id}/audit-events.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';
import { actionsOf, createPlanIn, eventsOf, f } from './audit.fixtures.js';

describeEachDialect('audit trail', (api) => {
  const events = (facility: number, query = '') => eventsOf(api, facility, query);
  const actions = (facility: number, query = '') => actionsOf(api, facility, query);
  const createPlan = (facility: number, body: Record<string, unknown> = {}) =>
    createPlanIn(api, facility, body);

  test('a plan create is recorded with every set field after and null before, and who and when', async () => {
    const facility = api.newFacility();
    const { plan } = await createPlan(facility, { price_amount: 900 });
    const [event, ...rest] = await events(facility);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [event.resource_type, event.resource_id, event.action],
      ['plan', String(plan.id), 'create'],
    );
    assert.deepEqual([event.api_key_id, event.api_key_name], [null, 'AUTH_MODE=none']);
    assert.match(event.occurred_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(event.changes.name, { before: null, after: 'Gold' });
    assert.deepEqual(event.changes.price_amount, { before: null, after: 900 });
    assert.deepEqual(event.changes.currency, { before: null, after: 'USD' });
    assert.deepEqual(event.changes.is_active, { before: null, after: true });
    assert.equal(event.changes.updated_at, undefined);
    assert.ok(Object.values(event.changes).every((change) => change.before === null));
  });

  test('an event carries the request id of the write that made it', async () => {
    const facility = api.newFacility();
    const headers = { 'x-request-id': `audit-${facility}` };
    const write = await api.patch(`${f(facility)}/policy`, { currency: 'EUR' }, headers);
    assert.equal(write.headers['x-request-id'], `audit-${facility}`);
    const [event] = await events(facility);
    assert.equal(event.request_id, `audit-${facility}`);
  });

  test('a plan PATCH records only the changed fields', async () => {
    const facility = api.newFacility();
    const { plan, url } = await createPlan(facility);
    await api.patch(url, { price_amount: 5, name: 'Gold' });
    const [, update] = await events(facility);
    assert.deepEqual([update.action, update.resource_id], ['update', String(plan.id)]);
    assert.deepEqual(update.changes, { price_amount: { before: 0, after: 5 } });
  });

  test('a plan soft delete, restore and hard delete are recorded as delete, restore, hard_delete', async () => {
    const facility = api.newFacility();
    const { url } = await createPlan(facility);
    await api.delete(url);
    await api.patch(url, { is_active: true });
    await api.delete(`${url}?hard_delete=true`);
    const [, deleted, restored, purged] = await events(facility);
    assert.equal(deleted.action, 'delete');
    assert.deepEqual(deleted.changes.is_active, { before: true, after: false });
    assert.equal(deleted.changes.deleted_at.before, null);
    assert.equal(restored.action, 'restore');
    assert.deepEqual(restored.changes.deleted_at, { before: deleted.changes.deleted_at.after, after: null });
    assert.equal(purged.action, 'hard_delete');
    assert.deepEqual(purged.changes.name, { before: 'Gold', after: null });
  });

  test('member create, update, status change, delete and restore are recorded', async () => {
    const facility = api.newFacility();
    const created = await api.post(`${f(facility)}/members`, { first_name: 'Ann' });
    const url = `${f(facility)}/members/${created.body.id}`;
    await api.patch(url, { last_name: 'Lee' });
    await api.patch(url, { status: 'frozen' });
    await api.delete(url);
    await api.patch(url, { status: 'active' });
    const list = await events(facility, '?resource_type=member');
    assert.deepEqual(
      list.map((e) => [e.resource_type, e.resource_id, e.action]),
      ['create', 'update', 'update', 'delete', 'restore'].map((a) => ['member', String(created.body.id), a]),
    );
    // The move to frozen opened an open-ended freeze; removing the member ended it.
    const freezes = await events(facility, '?resource_type=freeze');
    assert.deepEqual(
      freezes.map((e) => [e.action, e.changes.ends_on]),
      [
        ['create', undefined],
        ['update', { before: null, after: String(list[2].changes.status_changed_at.after).slice(0, 10) }],
      ],
    );
    assert.deepEqual(list[0].changes.first_name, { before: null, after: 'Ann' });
    assert.deepEqual(list[1].changes, { last_name: { before: null, after: 'Lee' } });
    assert.deepEqual(list[2].changes.status, { before: 'active', after: 'frozen' });
    assert.deepEqual(list[3].changes.status, { before: 'frozen', after: 'removed' });
    assert.deepEqual(list[4].changes.status, { before: 'removed', after: 'active' });
  });

  test('entitlement writes are recorded keyed by entitlement key', async () => {
    const facility = api.newFacility();
    const { plan } = await createPlan(facility);
    const url = `${f(facility)}/plans/${plan.id}/entitlements`;
    await api.put(url, { entitlements: { guest_passes: 2, sauna: true } });
    await api.put(`${url}/guest_passes`, { value: 4 });
    await api.put(`${url}/towels`, { value: 'yes' });
    await api.delete(`${url}/sauna`);
    const list = await events(facility, '?resource_type=entitlements');
    assert.deepEqual(
      list.map((e) => [e.resource_id, e.action, e.changes]),
      [
        ['update', { guest_passes: { before: null, after: 2 }, sauna: { before: null, after: true } }],
        ['update', { guest_passes: { before: 2, after: 4 } }],
        ['create', { towels: { before: null, after: 'yes' } }],
        ['delete', { sauna: { before: true, after: null } }],
      ].map((e) => [String(plan.id), ...e]),
    );
  });

  test("entitlement keys named like Object's methods (constructor, valueOf) are recorded like any key", async () => {
    const facility = api.newFacility();
    const { plan } = await createPlan(facility);
    const url = `${f(facility)}/plans/${plan.id}/entitlements`;
    await api.put(`${url}/constructor`, { value: 5 });
    await api.put(`${url}/valueOf`, { value: true });
    await api.delete(`${url}/valueOf`);
    const list = await events(facility, '?resource_type=entitlements');
    assert.deepEqual(
      list.map((e) => [e.action, e.changes]),
      [
        ['create', { constructor: { before: null, after: 5 } }],
        ['create', { valueOf: { before: null, after: true } }],
        ['delete', { valueOf: { before: true, after: null } }],
      ],
    );
  });

  test("a plan created from a template records the template's entitlements too", async () => {
    const facility = api.newFacility();
    const { plan } = await createPlan(facility, { template_id: 1 });
    const entitlements = await api.get(`${f(facility)}/plans/${plan.id}/entitlements`);
    const [event] = await events(facility, '?resource_type=entitlements');
    assert.equal(event.action, 'create');
    const after = Object.fromEntries(Object.entries(event.changes).map(([k, c]) => [k, c.after]));
    const expected = entitlements.body.entitlements.map((e: { key: string; value: unknown }) => [
      e.key,
      e.value,
    ]);
    assert.deepEqual(after, Object.fromEntries(expected));
  });

  test('a policy PATCH is recorded with before and after values', async () => {
    const facility = api.newFacility();
    await api.patch(`${f(facility)}/policy`, { currency: 'EUR', require_waiver: true });
    const [event] = await events(facility, '?resource_type=policy');
    assert.deepEqual([event.resource_id, event.action], [String(facility), 'update']);
    assert.deepEqual(event.changes, {
      currency: { before: 'USD', after: 'EUR' },
      require_waiver: { before: false, after: true },
    });
  });

  test('writes that change nothing add no event', async () => {
    const facility = api.newFacility();
    const { plan, url } = await createPlan(facility, { price_amount: 3 });
    const member = await api.post(`${f(facility)}/members`, { first_name: 'Ann' });
    const memberUrl = `${f(facility)}/members/${member.body.id}`;
    await api.put(`${url}/entitlements`, { entitlements: { sauna: true } });
    await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
    const before = await events(facility);
    await api.patch(url, {});
    await api.patch(url, { name: plan.name, price_amount: 3 });
    await api.patch(memberUrl, { first_name: 'Ann', status: 'active' });
    await api.put(`${url}/entitlements`, { entitlements: [{ key: 'sauna', value: true }] });
    await api.put(`${url}/entitlements/sauna`, { value: true });
    await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
    await api.delete(memberUrl);
    await api.delete(memberUrl);
    await api.delete(url);
    await api.delete(url);
    const after = await events(facility);
    assert.deepEqual(
      after.slice(before.length).map((e) => `${e.resource_type}:${e.action}`),
      ['member:delete', 'plan:delete'],
    );
  });

  test('failed writes (400, 404, 409, 412) add no event', async () => {
    const facility = api.newFacility();
    const { url } = await createPlan(facility);
    await createPlan(facility, { name: 'Silver' });
    const before = await actions(facility);
    assertProblem(await api.post(`${f(facility)}/plans`, { name: 'gold' }), 409, 'plan_name_conflict');
    assertProblem(await api.patch(url, { name: 'SILVER' }), 409, 'plan_name_conflict');
    assertProblem(
      await api.patch(url, { price_amount: 1 }, { 'if-match': '"stale"' }),
      412,
      'precondition_failed',
    );
    assertProblem(await api.delete(url, { 'if-match': '"stale"' }), 412, 'precondition_failed');
    assertInvalid(await api.patch(url, { price_amount: -1 }), '/price_amount');
    assertProblem(await api.delete(`${url}/entitlements/none`), 404, 'entitlement_not_found');
    await api.delete(url);
    assertProblem(await api.put(`${url}/entitlements/a`, { value: 1 }), 409, 'plan_archived');
    assert.deepEqual(await actions(facility), [...before, 'plan:delete']);
  });
});

describeEachDialect(
  'audit trail with API keys',
  (api) => {
    test("every event carries the writing key's id and name", async () => {
      const facility = api.newFacility();
      const { secret, key } = await createApiKey(api.app.db, {
        name: 'ops bot',
        role: 'admin',
        facilityIds: [facility],
      });
      const auth = { authorization: `Bearer ${secret}` };
      await api.post(`${f(facility)}/plans`, { name: 'Gold' }, auth);
      await api.patch(
        `${f(facility)}/policy`,
        { currency: 'EUR' },
        { authorization: 'Bearer test-admin-key-0123456789' },
      );
      const list = await eventsOf(api, facility, '', auth);
      assert.deepEqual(
        list.map((e) => [e.api_key_id, e.api_key_name]),
        [
          [null, 'cli'], // the key's own creation
          [key.id, 'ops bot'],
          [0, 'ADMIN_API_KEY'],
        ],
      );
    });
  },
  { authMode: 'api-key', adminApiKey: 'test-admin-key-0123456789' },
);
