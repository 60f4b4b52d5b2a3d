/**
 * The client against the real service, listening on a port, on SQLite and
 * PostgreSQL: every operation, paging, retries, ETags and problems.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import { type ClientOptions, createClient, type Fetch, ProblemError } from '../src/index.js';

const API_KEY = 'client-test-admin-key';

/** The problem the call throws, checked to be a ProblemError. */
async function problemOf(call: Promise<unknown>): Promise<ProblemError> {
  const error = await call.then(
    () => assert.fail('expected a ProblemError'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof ProblemError, String(error));
  return error;
}

describeEachDialect(
  'the client against the service',
  (api) => {
    let baseUrl = '';
    before(async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    });
    const clientOf = (options: Partial<ClientOptions> = {}) =>
      createClient({ baseUrl, apiKey: API_KEY, retries: { baseDelayMs: 1 }, ...options });

    test('plans: create, read with its ETag, list, update with ifMatch, archive and remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const created = await client.plans.create(facility, { name: 'Adult monthly', price_amount: 4900 });
      assert.equal(created.data.name, 'Adult monthly');
      assert.equal(created.data.billing_period, 'monthly');
      assert.match(created.etag, /^".+"$/);

      const read = await client.plans.get(facility, created.data.id);
      assert.deepEqual(read, created);

      const updated = await client.plans.update(
        facility,
        created.data.id,
        { price_amount: 5400 },
        { ifMatch: read.etag },
      );
      assert.equal(updated.data.price_amount, 5400);
      assert.notEqual(updated.etag, read.etag);
      assert.deepEqual(
        (await client.plans.list(facility)).plans.map((plan) => [plan.id, plan.price_amount]),
        [[created.data.id, 5400]],
      );

      await client.plans.delete(facility, created.data.id, { ifMatch: updated.etag });
      assert.deepEqual((await client.plans.list(facility)).plans, []);
      assert.notEqual((await client.plans.get(facility, created.data.id)).data.deleted_at, null);
      await client.plans.delete(facility, created.data.id, { hardDelete: true });
      assert.equal((await problemOf(client.plans.get(facility, created.data.id))).code, 'plan_not_found');
    });

    test('entitlements: replace, read, set a new and an existing key, remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const plan = (await client.plans.create(facility, { name: 'Swim' })).data;

      const replaced = await client.entitlements.replace(facility, plan.id, {
        entitlements: { guest_passes: 2, sauna: true },
      });
      assert.deepEqual(replaced.data.entitlements, [
        { key: 'guest_passes', value: 2 },
        { key: 'sauna', value: true },
      ]);
      const read = await client.entitlements.get(facility, plan.id);
      assert.deepEqual(read, replaced);

      const added = await client.entitlements.set(facility, plan.id, 'locker', 'small');
      assert.deepEqual([added.data, added.created], [{ key: 'locker', value: 'small' }, true]);
      const changed = await client.entitlements.set(facility, plan.id, 'locker', 'large', {
        ifMatch: added.etag,
      });
      assert.deepEqual([changed.data, changed.created], [{ key: 'locker', value: 'large' }, false]);

      await client.entitlements.delete(facility, plan.id, 'sauna', { ifMatch: changed.etag });
      const keys = (await client.entitlements.get(facility, plan.id)).data.entitlements.map((e) => e.key);
      assert.deepEqual(keys, ['guest_passes', 'locker']);
    });

    test('members: enrol on a plan, read, list with filters, move the status, remove', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const plan = (await client.plans.create(facility, { name: 'Gym', max_members: 10 })).data;
      const ada = await client.members.create(facility, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        plan_id: plan.id,
      });
      await client.members.create(facility, { first_name: 'Bo', status: 'pending' });
      assert.deepEqual(await client.members.get(facility, ada.data.id), ada);

      const frozen = await client.members.update(
        facility,
        ada.data.id,
        { status: 'frozen' },
        { ifMatch: ada.etag },
      );
      assert.equal(frozen.data.status, 'frozen');
      const page = await client.members.list(facility, { status: 'frozen', q: 'lovelace' });
      assert.deepEqual(
        page.members.map((m) => m.first_name),
        ['Ada'],
      );

      await client.members.delete(facility, ada.data.id, { ifMatch: frozen.etag });
      assert.equal((await client.members.get(facility, ada.data.id)).data.status, 'removed');
      const listed = await client.members.list(facility);
      assert.deepEqual(
        listed.members.map((m) => m.first_name),
        ['Bo'],
      );
    });

    test('policy, plan templates and the audit trail', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const policy = await client.policy.get(facility);
      assert.equal(policy.data.timezone, 'UTC');
      const changed = await client.policy.update(
        facility,
        { timezone: 'Europe/Berlin' },
        { ifMatch: policy.etag },
      );
      assert.equal(changed.data.timezone, 'Europe/Berlin');

      const templates = await client.templates.list({ sport_id: 1, limit: 2 });
      assert.equal(templates.templates.length, 2);
      assert.equal(typeof templates.next_cursor, 'string');

      const events = await client.auditEvents.list(facility, { resource_type: 'policy' });
      assert.deepEqual(events.audit_events[0].changes.timezone, { before: 'UTC', after: 'Europe/Berlin' });
    });

    test('paginate follows next_cursor to the last page, with the same filters on every page', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
      for (const name of names) await client.members.create(facility, { first_name: name });
      await client.members.create(facility, { first_name: 'Pending', status: 'pending' });
      const cursors: (string | undefined)[] = [];
      const seen: string[] = [];
      for await (const member of client.paginate((cursor) => {
        cursors.push(cursor);
        return client.members.list(facility, { status: 'active', limit: 3, cursor });
      })) {
        seen.push(member.first_name);
      }
      assert.deepEqual(seen, names);
      assert.equal(cursors.length, 3);
      assert.equal(cursors[0], undefined);
    });

    test('a create whose answer is lost is retried with the same Idempotency-Key and creates once', async () => {
      const facility = api.newFacility();
      const keys: (string | null)[] = [];
      let lost = 0;
      // The first answer reaches the service and is lost on its way back.
      const losingFetch: Fetch = async (request) => {
        keys.push(request.headers.get('idempotency-key'));
        const response = await fetch(request);
        if (lost++ > 0) return response;
        throw new TypeError('fetch failed: the connection was reset');
      };
      const client = clientOf({ fetch: losingFetch });
      const created = await client.plans.create(facility, { name: 'Once' });
      assert.equal(keys.length, 2);
      assert.ok(keys[0]);
      assert.equal(keys[1], keys[0]);
      const plans = (await client.plans.list(facility)).plans;
      assert.deepEqual(
        plans.map((plan) => plan.id),
        [created.data.id],
      );
    });

    test('a write with a stale ifMatch is 412 precondition_failed and changes nothing', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const member = await client.members.create(facility, { first_name: 'Cy' });
      await client.members.update(facility, member.data.id, { notes: 'first' }, { ifMatch: member.etag });
      const stale = await problemOf(
        client.members.update(facility, member.data.id, { notes: 'second' }, { ifMatch: member.etag }),
      );
      assert.equal(stale.status, 412);
      assert.equal(stale.code, 'precondition_failed');
      assert.equal((await client.members.get(facility, member.data.id)).data.notes, 'first');
      const deleted = await problemOf(
        client.members.delete(facility, member.data.id, { ifMatch: member.etag }),
      );
      assert.equal(deleted.code, 'precondition_failed');
    });

    test('problems are ProblemErrors with status, code, detail, errors and requestId', async () => {
      let requestId: string | null = null;
      const client = clientOf({
        fetch: async (request) => {
          const response = await fetch(request);
          requestId = response.headers.get('x-request-id');
          return response;
        },
      });
      const facility = api.newFacility();
      await client.plans.create(facility, { name: 'Taken' });
      const conflict = await problemOf(client.plans.create(facility, { name: 'taken' }));
      assert.deepEqual([conflict.status, conflict.code], [409, 'plan_name_conflict']);
      assert.match(conflict.detail, /already exists/);
      assert.deepEqual(conflict.errors, []);
      assert.ok(conflict.requestId);
      assert.equal(conflict.requestId, requestId);

      const invalid = await problemOf(client.plans.create(facility, { name: '', price_amount: -1 }));
      assert.deepEqual([invalid.status, invalid.code], [400, 'validation_error']);
      assert.deepEqual(invalid.errors.map((e) => e.field).sort(), ['/name', '/price_amount']);

      const missing = await problemOf(client.members.get(facility, 999_999));
      assert.deepEqual([missing.status, missing.code], [404, 'member_not_found']);

      const unauthenticated = await problemOf(clientOf({ apiKey: 'wrong' }).policy.get(facility));
      assert.deepEqual([unauthenticated.status, unauthenticated.code], [401, 'unauthenticated']);
    });

    test('a payload wrapped as {"status": "success", "data": …} is read like a bare one', async () => {
      const facility = api.newFacility();
      // A server that wraps every successful JSON answer, as rule 1 of the spec allows.
      const wrappingFetch: Fetch = async (request) => {
        const response = await fetch(request);
        if (!response.ok || response.status === 204) return response;
        const wrapped = JSON.stringify({ status: 'success', data: await response.json() });
        return new Response(wrapped, { status: response.status, headers: response.headers });
      };
      const bare = clientOf();
      const wrapped = clientOf({ fetch: wrappingFetch });
      const plan = await wrapped.plans.create(facility, { name: 'Wrapped', max_members: 3 });
      assert.deepEqual(plan, await bare.plans.get(facility, plan.data.id));
      assert.deepEqual(await wrapped.plans.get(facility, plan.data.id), plan);
      for (const name of ['A', 'B', 'C']) await wrapped.members.create(facility, { first_name: name });
      const names: string[] = [];
      for await (const member of wrapped.paginate((cursor) =>
        wrapped.members.list(facility, { limit: 2, cursor }),
      )) {
        names.push(member.first_name);
      }
      assert.deepEqual(names, ['A', 'B', 'C']);
      const invalid = await problemOf(
        wrapped.members.create(facility, { first_name: 'D', plan_id: 999_999 }),
      );
      assert.deepEqual([invalid.status, invalid.code], [422, 'invalid_plan']);
    });
  },
  { authMode: 'api-key', adminApiKey: API_KEY },
);
