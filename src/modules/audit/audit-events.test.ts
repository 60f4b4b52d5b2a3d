/**
 * Reading the audit trail: GET /admin/facilities/{facility_id}/audit-events
 * filters, pages, stays within its facility and cannot be written to.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../test/harness.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';
import { actionsOf, createPlanIn, eventsOf, f } from './audit.fixtures.js';

/** The app's clock, which stamps each entry's occurred_at: a test moves it on. */
const clock = testClock('2026-08-14T12:00:00.000Z');

describeEachDialect(
  'audit events: reading',
  (api) => {
    const events = (facility: number, query = '') => eventsOf(api, facility, query);
    const actions = (facility: number, query = '') => actionsOf(api, facility, query);
    const createPlan = (facility: number, body: Record<string, unknown> = {}) =>
      createPlanIn(api, facility, body);

    test('filters resource_type, resource_id, action and since each narrow the list', async () => {
      const facility = api.newFacility();
      const { plan, url } = await createPlan(facility);
      await api.post(`${f(facility)}/members`, { first_name: 'Ann' });
      clock.advanceMs(60_000);
      const since = clock.now().toISOString();
      clock.advanceMs(60_000);
      const other = await createPlan(facility, { name: 'Silver' });
      await api.patch(url, { price_amount: 1 });
      assert.equal((await events(facility)).length, 4);
      assert.deepEqual(await actions(facility, '?resource_type=member'), ['member:create']);
      const ofPlan = await events(facility, `?resource_id=${plan.id}&resource_type=plan`);
      assert.deepEqual(
        ofPlan.map((e) => e.action),
        ['create', 'update'],
      );
      assert.deepEqual(await actions(facility, '?action=update'), ['plan:update']);
      const recent = await events(facility, `?since=${since}`);
      assert.deepEqual(
        recent.map((e) => [e.resource_id, e.action]),
        [
          [String(other.plan.id), 'create'],
          [String(plan.id), 'update'],
        ],
      );
      const offset = encodeURIComponent(since.replace('Z', '+00:00'));
      assert.deepEqual(await events(facility, `?since=${offset}`), recent);
    });

    test('since takes any RFC 3339 time; one outside the years 0001 to 9999 is 400', async () => {
      const facility = api.newFacility();
      await createPlan(facility);
      const count = async (since: string) =>
        (await events(facility, `?since=${encodeURIComponent(since)}`)).length;
      assert.equal(await count('2016-12-31T23:59:60Z'), 1, 'a leap second');
      assert.equal(await count('2017-01-01T00:59:60.5+01:00'), 1);
      assert.equal(await count('0001-01-01T00:00:00Z'), 1);
      assert.equal(await count('9999-12-31T22:59:59-01:00'), 0);
      for (const since of [
        '0000-12-31T23:59:59Z',
        '9999-12-31T23:59:59-01:00',
        '0001-01-01T00:30:00+01:00',
      ]) {
        assertInvalid(
          await api.get(`${f(facility)}/audit-events?since=${encodeURIComponent(since)}`),
          'since',
        );
      }
    });

    test('limit and cursor page through every event once, in order', async () => {
      const facility = api.newFacility();
      const { url } = await createPlan(facility);
      for (const price_amount of [1, 2, 3, 4]) await api.patch(url, { price_amount });
      const all = await events(facility);
      const seen: number[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await api.get(`${f(facility)}/audit-events${query}`);
        assert.ok(page.body.audit_events.length <= 2);
        seen.push(...page.body.audit_events.map((e: { id: number }) => e.id));
        cursor = page.body.next_cursor;
      }
      assert.deepEqual(
        seen,
        all.map((e) => e.id),
      );
      assert.equal(seen.length, 5);
    });

    test("another facility's events never show", async () => {
      const mine = api.newFacility();
      const theirs = api.newFacility();
      const { plan } = await createPlan(theirs);
      await api.patch(`${f(theirs)}/policy`, { currency: 'EUR' });
      assert.deepEqual(await events(mine), []);
      assert.deepEqual(await events(mine, `?resource_id=${plan.id}`), []);
    });

    test('the audit trail cannot be changed through the API: writes are 405', async () => {
      const facility = api.newFacility();
      await createPlan(facility);
      const url = `${f(facility)}/audit-events`;
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const response = await api.request(method, url, method === 'DELETE' ? undefined : {});
        assertProblem(response, 405, 'method_not_allowed');
        assert.match(String(response.headers.allow), /GET/);
      }
      assertProblem(await api.delete(`${url}/1`), 404, 'not_found');
      assert.equal((await events(facility)).length, 1);
    });

    test('bad filter values are 400 naming the parameter', async () => {
      const url = `${f(api.newFacility())}/audit-events`;
      assertInvalid(await api.get(`${url}?resource_type=foo`), 'resource_type');
      assertInvalid(await api.get(`${url}?action=erase`), 'action');
      assertInvalid(await api.get(`${url}?since=yesterday`), 'since');
      assertInvalid(await api.get(`${url}?limit=0`), 'limit');
      assertInvalid(await api.get(`${url}?cursor=nope`), 'cursor');
    });
  },
  {},
  { now: clock.now },
);

describeEachDialect(
  'audit events: access',
  (api) => {
    test('a viewer key reads the trail; a key of another facility gets 403', async () => {
      const facility = api.newFacility();
      const create = (role: 'admin' | 'viewer', facilityIds: number[]) =>
        createApiKey(api.app.db, { name: role, role, facilityIds });
      const viewer = { authorization: `Bearer ${(await create('viewer', [facility])).secret}` };
      const outsider = { authorization: `Bearer ${(await create('admin', [facility + 1000])).secret}` };
      await api.patch(
        `${f(facility)}/policy`,
        { currency: 'EUR' },
        { authorization: 'Bearer test-admin-key-0123456789' },
      );
      assert.deepEqual(
        (await eventsOf(api, facility, '', viewer)).map((e) => `${e.resource_type}:${e.action}`),
        ['api_key:create', 'policy:update'],
        "the viewer key's creation is in its facility's trail",
      );
      assertProblem(await api.get(`${f(facility)}/audit-events`, outsider), 403, 'forbidden');
    });
  },
  { authMode: 'api-key', adminApiKey: 'test-admin-key-0123456789' },
);
