/**
 * "Concurrency and retries": Idempotency-Key on POST (plans and members).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Api,
  assertInvalid,
  assertProblem,
  describeEachDialect,
  type TestResponse,
} from '../../../test/harness.js';
import { createApiKey } from '../api-keys/api-key.service.js';

const REPLAYED = 'idempotent-replayed';

const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;
const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;

async function countPlans(api: Api, facility: number, headers: Record<string, string> = {}) {
  const list = await api.get(`${plansUrl(facility)}?include_inactive=true`, headers);
  assert.equal(list.status, 200, list.text);
  return list.body.plans.length as number;
}

function assertReplayOf(replay: TestResponse, first: TestResponse) {
  assert.equal(replay.status, first.status, replay.text);
  assert.equal(replay.headers[REPLAYED], 'true');
  assert.deepEqual(replay.body, first.body);
  assert.equal(replay.headers.location, first.headers.location);
  assert.equal(replay.headers['content-type'], first.headers['content-type']);
  assert.equal(replay.headers.etag, first.headers.etag);
}

describeEachDialect('idempotency keys', (api) => {
  const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random()}` });

  test('a retried POST plan replays the 201 with the same body and Location, and creates nothing', async () => {
    const facility = api.newFacility();
    const headers = key('plan');
    const first = await api.post(plansUrl(facility), { name: 'Gold', price_amount: 900 }, headers);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers[REPLAYED], undefined);
    assert.equal(first.headers.location, `${plansUrl(facility)}/${first.body.id}`);
    const retry = await api.post(plansUrl(facility), { name: 'Gold', price_amount: 900 }, headers);
    assertReplayOf(retry, first);
    assert.equal(await countPlans(api, facility), 1);
  });

  test('a retried POST member replays the 201 with the same body and Location, and creates nothing', async () => {
    const facility = api.newFacility();
    const headers = key('member');
    const body = { first_name: 'Ann', email: 'ann@example.com' };
    const first = await api.post(membersUrl(facility), body, headers);
    assert.equal(first.status, 201, first.text);
    const retry = await api.post(membersUrl(facility), body, headers);
    assertReplayOf(retry, first);
    const list = await api.get(membersUrl(facility));
    assert.deepEqual(
      list.body.members.map((m: { id: number }) => m.id),
      [first.body.id],
    );
  });

  test('a retry whose body has its fields in another order is the same request', async () => {
    const facility = api.newFacility();
    const headers = key('order');
    const first = await api.post(plansUrl(facility), { name: 'Gold', price_amount: 1, sport_id: 2 }, headers);
    assert.equal(first.status, 201, first.text);
    const retry = await api.post(plansUrl(facility), { sport_id: 2, price_amount: 1, name: 'Gold' }, headers);
    assertReplayOf(retry, first);
  });

  test('a retry to the collection with a trailing slash is the same request', async () => {
    const facility = api.newFacility();
    const headers = key('slash');
    const first = await api.post(`${plansUrl(facility)}/`, { name: 'Gold' }, headers);
    assert.equal(first.status, 201, first.text);
    const retry = await api.post(plansUrl(facility), { name: 'Gold' }, headers);
    assertReplayOf(retry, first);
    assert.equal(await countPlans(api, facility), 1);
  });

  test('the same key with a different body or path is 422 idempotency_key_reused', async () => {
    const facility = api.newFacility();
    const headers = key('reused');
    assert.equal((await api.post(plansUrl(facility), { name: 'Gold' }, headers)).status, 201);
    assertProblem(
      await api.post(plansUrl(facility), { name: 'Silver' }, headers),
      422,
      'idempotency_key_reused',
    );
    assertProblem(
      await api.post(membersUrl(facility), { first_name: 'Gold' }, headers),
      422,
      'idempotency_key_reused',
    );
    assert.equal(await countPlans(api, facility), 1);
    assert.equal((await api.get(membersUrl(facility))).body.members.length, 0);
  });

  test('a different key creates a second resource', async () => {
    const facility = api.newFacility();
    const first = await api.post(membersUrl(facility), { first_name: 'Ann' }, key('a'));
    const second = await api.post(membersUrl(facility), { first_name: 'Ann' }, key('b'));
    assert.deepEqual([first.status, second.status], [201, 201]);
    assert.equal(second.headers[REPLAYED], undefined);
    assert.notEqual(second.body.id, first.body.id);
  });

  test('an Idempotency-Key of 256 characters or with a control character is 400 naming idempotency-key', async () => {
    const facility = api.newFacility();
    for (const bad of ['k'.repeat(256), 'abc\tdef', 'abc\x7fdef']) {
      const body = assertInvalid(
        await api.post(plansUrl(facility), { name: 'Gold' }, { 'idempotency-key': bad }),
        'idempotency-key',
      );
      const error = body.errors.find((e: { field: string }) => e.field === 'idempotency-key');
      assert.equal(error.location, 'header');
    }
    assert.equal(await countPlans(api, facility), 0);
    const longest = await api.post(
      plansUrl(facility),
      { name: 'Gold' },
      { 'idempotency-key': 'k'.repeat(255) },
    );
    assert.equal(longest.status, 201, longest.text);
  });

  test('a first request that failed validation (400) is replayed as the same 400', async () => {
    const facility = api.newFacility();
    const headers = key('invalid');
    const first = await api.post(plansUrl(facility), { name: 'Gold', price_amount: -1 }, headers);
    assertInvalid(first, '/price_amount');
    const retry = await api.post(plansUrl(facility), { name: 'Gold', price_amount: -1 }, headers);
    assertReplayOf(retry, first);
    assert.equal(await countPlans(api, facility), 0);
  });

  test('a body nested past the limit with an Idempotency-Key is 400, not 500, and leaves the key free', async () => {
    const facility = api.newFacility();
    const headers = key('deep');
    for (const depth of [33, 10_000]) {
      const payload = `{"name":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;
      assertInvalid(await api.post(plansUrl(facility), payload, headers), '');
    }
    const created = await api.post(plansUrl(facility), { name: 'Gold' }, headers);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers[REPLAYED], undefined);
  });

  test('an answer over 64 KiB is not kept: a retry runs again and the key stays free', async () => {
    const facility = api.newFacility();
    const headers = key('large-answer');
    // 100 listed problems naming 1,000-character fields: over 64 KiB of problem document.
    const unknown = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${i}${'x'.repeat(1000)}`, 1]));
    const first = await api.post(plansUrl(facility), { name: 'Gold', ...unknown }, headers);
    assertInvalid(first);
    assert.ok(first.text.length > 64 * 1024, `${first.text.length} bytes`);
    const retry = await api.post(plansUrl(facility), { name: 'Gold', ...unknown }, headers);
    assertInvalid(retry);
    assert.equal(retry.headers[REPLAYED], undefined);
    assert.notEqual(retry.body.request_id, first.body.request_id);
    const created = await api.post(plansUrl(facility), { name: 'Gold' }, headers);
    assert.equal(created.status, 201, created.text);
  });

  test('an answer of 16 to 64 KiB (sent encoded, not as text) is kept and replayed whole', async () => {
    const facility = api.newFacility();
    const headers = key('mid-answer');
    const unknown = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${i}${'x'.repeat(1000)}`, 1]));
    const first = await api.post(plansUrl(facility), { name: 'Gold', ...unknown }, headers);
    assertInvalid(first);
    assert.ok(first.text.length > 16 * 1024 && first.text.length < 64 * 1024, `${first.text.length} bytes`);
    const retry = await api.post(plansUrl(facility), { name: 'Gold', ...unknown }, headers);
    assertReplayOf(retry, first);
    assert.equal(retry.text, first.text);
  });

  test('a first request refused by a rule (409) is replayed as the same 409', async () => {
    const facility = api.newFacility();
    assert.equal((await api.post(plansUrl(facility), { name: 'Gold' })).status, 201);
    const headers = key('conflict');
    const first = await api.post(plansUrl(facility), { name: 'gold' }, headers);
    assertProblem(first, 409, 'plan_name_conflict');
    const retry = await api.post(plansUrl(facility), { name: 'gold' }, headers);
    assertReplayOf(retry, first);
  });

  test('five identical requests at once create exactly one resource; the others replay it or are 409', async () => {
    const facility = api.newFacility();
    const headers = key('race');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api.post(plansUrl(facility), { name: 'Gold' }, headers)),
    );
    const created = answers.filter((a) => a.status === 201 && a.headers[REPLAYED] === undefined);
    assert.equal(created.length, 1, answers.map((a) => `${a.status} ${a.text}`).join('\n'));
    for (const answer of answers) {
      if (answer.status === 201) assert.deepEqual(answer.body, created[0].body);
      else {
        const problem = assertProblem(answer, 409, 'idempotency_in_progress');
        assert.equal(problem.code, 'idempotency_in_progress');
      }
    }
    assert.equal(await countPlans(api, facility), 1);
  });

  test('a retry while the first request is in flight is 409 idempotency_in_progress; after 60 s it takes over', async () => {
    const facility = api.newFacility();
    const headers = key('in-flight');
    const body = { first_name: 'Ann' };
    assert.equal((await api.post(membersUrl(facility), body, headers)).status, 201);
    // The record as a first request leaves it while it runs (here, or on another instance).
    const inFlightSince = async (createdAt: Date) => {
      const updated = await api.app.db
        .updateTable('idempotency_keys')
        .set({
          response_status: null,
          response_body: null,
          response_location: null,
          response_etag: null,
          created_at: createdAt.toISOString(),
        })
        .where('idempotency_key', '=', headers['idempotency-key'])
        .executeTakeFirst();
      assert.equal(Number(updated.numUpdatedRows), 1);
    };
    await inFlightSince(new Date());
    const busy = await api.post(membersUrl(facility), body, headers);
    assertProblem(busy, 409, 'idempotency_in_progress');
    assert.equal(busy.headers['retry-after'], '1');
    await inFlightSince(new Date(Date.now() - 61_000));
    const takenOver = await api.post(membersUrl(facility), body, headers);
    assert.equal(takenOver.status, 201, takenOver.text);
    assert.equal(takenOver.headers[REPLAYED], undefined);
    assertReplayOf(await api.post(membersUrl(facility), body, headers), takenOver);
  });

  test('a record older than 24 hours is not replayed: the retry creates anew', async () => {
    const facility = api.newFacility();
    const headers = key('old');
    const first = await api.post(membersUrl(facility), { first_name: 'Ann' }, headers);
    assert.equal(first.status, 201, first.text);
    const dayAndAMinuteAgo = new Date(Date.now() - (24 * 60 + 1) * 60 * 1000).toISOString();
    const updated = await api.app.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAndAMinuteAgo })
      .where('idempotency_key', '=', headers['idempotency-key'])
      .executeTakeFirst();
    assert.equal(Number(updated.numUpdatedRows), 1);
    const later = await api.post(membersUrl(facility), { first_name: 'Ann' }, headers);
    assert.equal(later.status, 201, later.text);
    assert.equal(later.headers[REPLAYED], undefined);
    assert.notEqual(later.body.id, first.body.id);
    assertReplayOf(await api.post(membersUrl(facility), { first_name: 'Ann' }, headers), later);
  });
});

describeEachDialect(
  'idempotency keys belong to the API key',
  (api) => {
    test('the same Idempotency-Key from two API keys creates two resources', async () => {
      const facility = api.newFacility();
      const auth = async (name: string) => {
        const { secret } = await createApiKey(api.app.db, { name, role: 'admin', facilityIds: [facility] });
        return { authorization: `Bearer ${secret}`, 'idempotency-key': 'shared-key' };
      };
      const [alice, bob] = [await auth('alice'), await auth('bob')];
      const body = { first_name: 'Ann' };
      const first = await api.post(membersUrl(facility), body, alice);
      const second = await api.post(membersUrl(facility), body, bob);
      assert.deepEqual([first.status, second.status], [201, 201], second.text);
      assert.equal(second.headers[REPLAYED], undefined);
      assert.notEqual(second.body.id, first.body.id);
      assertReplayOf(await api.post(membersUrl(facility), body, alice), first);
      assertReplayOf(await api.post(membersUrl(facility), body, bob), second);
      const list = await api.get(membersUrl(facility), { authorization: alice.authorization });
      assert.equal(list.body.members.length, 2);
    });
  },
  { authMode: 'api-key', adminApiKey: 'test-admin-key-0123456789' },
);

describeEachDialect('idempotency: the answer is stored with the create', (api) => {
  test('the stored answer of a create is committed with the resource itself', async () => {
    const facility = api.newFacility();
    const key = 'commit-together-1';
    const created = await api.post(
      `/admin/facilities/${facility}/members`,
      { first_name: 'Kim' },
      { 'idempotency-key': key },
    );
    assert.equal(created.status, 201);
    const record = await api.app.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    assert.equal(record.response_status, 201);
    assert.equal(record.response_location, `/admin/facilities/${facility}/members/${created.body.id}`);
    assert.deepEqual(JSON.parse(String(record.response_body)), created.body);
    assert.equal(record.response_body, created.text);
  });
});
