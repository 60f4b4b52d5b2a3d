/**
 * What the client does for its caller, against the real service on SQLite and
 * PostgreSQL: paging to the end, a retried create, ETags, problems, wrapped payloads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from '../../../test/harness.js';
import type { Fetch } from '../src/index.js';
import { listening, ON_THE_TEST_CLOCK, problemOf, WITH_API_KEY } from './service.js';

describeEachDialect(
  'the client: paging, retries, ETags and problems',
  (api) => {
    const { clientOf } = listening(api);

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
  WITH_API_KEY,
  ON_THE_TEST_CLOCK,
);
