/**
 * "Concurrency and retries" for entitlements: the collection's ETag (GET and
 * PUT), one entitlement's ETag (PUT one) and If-Match on every write.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, type TestResponse } from '../../../test/harness.js';

const STRONG_ETAG = /^"[A-Za-z0-9_-]+"$/;

function etagOf(response: TestResponse): string {
  const etag = response.headers.etag;
  assert.equal(typeof etag, 'string', `expected an ETag on ${response.status}: ${response.text}`);
  return etag as string;
}

describeEachDialect('entitlements: ETag and If-Match', (api) => {
  /** A plan with {guest_passes: 2, sauna: true}; answers the collection's and one key's URL. */
  async function planWithEntitlements() {
    const facility = api.newFacility();
    const plan = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold' });
    assert.equal(plan.status, 201, plan.text);
    const url = `/admin/facilities/${facility}/plans/${plan.body.id}/entitlements`;
    const put = await api.put(url, { entitlements: { guest_passes: 2, sauna: true } });
    assert.equal(put.status, 200, put.text);
    return { url, one: (key: string) => `${url}/${key}`, etag: etagOf(put), collection: put.body };
  }

  test('GET and PUT of the collection answer a strong ETag that equals the next GET', async () => {
    const { url, etag } = await planWithEntitlements();
    assert.match(etag, STRONG_ETAG);
    assert.equal(etagOf(await api.get(url)), etag);
  });

  test('PUT one answers a strong ETag for that entitlement, created or replaced', async () => {
    const { one } = await planWithEntitlements();
    const created = await api.put(one('towels'), { value: 1 });
    assert.equal(created.status, 201, created.text);
    assert.match(etagOf(created), STRONG_ETAG);
    const replaced = await api.put(one('towels'), { value: 2 });
    assert.equal(replaced.status, 200, replaced.text);
    assert.notEqual(etagOf(replaced), etagOf(created));
    const again = await api.put(one('towels'), { value: 2 }, { 'if-match': etagOf(replaced) });
    assert.equal(again.status, 200, again.text);
    assert.equal(etagOf(again), etagOf(replaced));
  });

  test("the collection's ETag changes with a real change and stays with a no-op", async () => {
    const { url, one, etag } = await planWithEntitlements();
    assert.equal(etagOf(await api.put(url, { entitlements: { sauna: true, guest_passes: 2 } })), etag);
    await api.put(one('guest_passes'), { value: 2 });
    assert.equal(etagOf(await api.get(url)), etag);
    await api.put(one('guest_passes'), { value: '2' });
    const changed = etagOf(await api.get(url));
    assert.notEqual(changed, etag);
    assert.equal((await api.delete(one('sauna'))).status, 204);
    assert.notEqual(etagOf(await api.get(url)), changed);
  });

  test("a key named like Object's methods (constructor) changes the ETag like any key: the old tag is then stale", async () => {
    const { url, one, etag } = await planWithEntitlements();
    assert.equal((await api.put(one('constructor'), { value: 5 })).status, 201);
    assert.notEqual(etagOf(await api.get(url)), etag);
    const stale = await api.put(url, { entitlements: { sauna: true } }, { 'if-match': etag });
    assertProblem(stale, 412, 'precondition_failed');
    const kept = (await api.get(url)).body.entitlements.map((e: { key: string }) => e.key);
    assert.deepEqual(kept, ['constructor', 'guest_passes', 'sauna']);
  });

  test('the ETag changes with every write, even one back to an earlier set: the old tag is then stale', async () => {
    const { url, etag: first } = await planWithEntitlements();
    const changed = await api.put(url, { entitlements: { guest_passes: 5 } });
    const back = await api.put(url, { entitlements: { guest_passes: 2, sauna: true } });
    assert.deepEqual(back.body.entitlements, [
      { key: 'guest_passes', value: 2 },
      { key: 'sauna', value: true },
    ]);
    assert.equal(new Set([first, etagOf(changed), etagOf(back)]).size, 3);
    assertProblem(
      await api.put(url, { entitlements: {} }, { 'if-match': first }),
      412,
      'precondition_failed',
    );
  });

  test('two plans with the same entitlements do not share an ETag once either was written', async () => {
    const a = await planWithEntitlements();
    const b = await planWithEntitlements();
    await api.put(`${b.url}/sauna`, { value: false });
    await api.put(`${b.url}/sauna`, { value: true });
    assert.deepEqual((await api.get(b.url)).body, (await api.get(a.url)).body);
    assert.notEqual(etagOf(await api.get(b.url)), etagOf(await api.get(a.url)));
  });

  test('PUT of the collection with a stale If-Match is 412 and changes nothing', async () => {
    const { url, one, etag: stale } = await planWithEntitlements();
    await api.put(one('guest_passes'), { value: 3 });
    const current = await api.get(url);
    const refused = await api.put(url, { entitlements: [] }, { 'if-match': stale });
    assertProblem(refused, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, current.body);
  });

  test('PUT one and DELETE one with a stale If-Match are 412 and change nothing', async () => {
    const { url, one, collection } = await planWithEntitlements();
    const stale = etagOf(await api.put(one('sauna'), { value: false }));
    await api.put(one('sauna'), { value: true });
    assertProblem(
      await api.put(one('sauna'), { value: 'maybe' }, { 'if-match': stale }),
      412,
      'precondition_failed',
    );
    assertProblem(await api.delete(one('sauna'), { 'if-match': stale }), 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, collection);
  });

  test('the current ETag succeeds on PUT of the collection, PUT one and DELETE one', async () => {
    const { url, one, etag } = await planWithEntitlements();
    const replaced = await api.put(url, { entitlements: { gym: 'all' } }, { 'if-match': etag });
    assert.equal(replaced.status, 200, replaced.text);
    const set = await api.put(
      one('gym'),
      { value: 'none' },
      { 'if-match': etagOf(await api.put(one('gym'), { value: 'some' })) },
    );
    assert.equal(set.status, 200, set.text);
    assert.equal((await api.delete(one('gym'), { 'if-match': etagOf(set) })).status, 204);
    assert.deepEqual((await api.get(url)).body, { entitlements: [] });
  });

  test("the collection's ETag from GET also guards PUT one and DELETE one, until any entitlement changes", async () => {
    const { url, one } = await planWithEntitlements();
    const read = etagOf(await api.get(url));
    const set = await api.put(one('sauna'), { value: false }, { 'if-match': read });
    assert.equal(set.status, 200, set.text);
    assertProblem(await api.delete(one('guest_passes'), { 'if-match': read }), 412, 'precondition_failed');
    const reread = etagOf(await api.get(url));
    assert.equal((await api.delete(one('guest_passes'), { 'if-match': reread })).status, 204);
    assert.deepEqual((await api.get(url)).body, { entitlements: [{ key: 'sauna', value: false }] });
  });

  test('If-Match: * succeeds on every entitlement write whatever the ETag', async () => {
    const { url, one } = await planWithEntitlements();
    const star = { 'if-match': '*' };
    assert.equal((await api.put(url, { entitlements: { a: 1, b: 2 } }, star)).status, 200);
    assert.equal((await api.put(one('a'), { value: 5 }, star)).status, 200);
    assert.equal((await api.delete(one('b'), star)).status, 204);
    assert.deepEqual((await api.get(url)).body, { entitlements: [{ key: 'a', value: 5 }] });
  });

  test('a weak tag never matches, even with the current opaque value', async () => {
    const { url, one, etag, collection } = await planWithEntitlements();
    const weakOne = `W/${etagOf(await api.put(one('sauna'), { value: true }))}`;
    const refused = { 'if-match': `W/${etag}` };
    assertProblem(await api.put(url, { entitlements: [] }, refused), 412, 'precondition_failed');
    assertProblem(
      await api.put(one('sauna'), { value: 1 }, { 'if-match': weakOne }),
      412,
      'precondition_failed',
    );
    assertProblem(await api.delete(one('sauna'), { 'if-match': weakOne }), 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, collection);
  });

  test('PUT one with If-Match on a missing key is 412 (even *) and creates nothing', async () => {
    const { url, one, etag, collection } = await planWithEntitlements();
    for (const ifMatch of ['*', etag]) {
      const refused = await api.put(one('towels'), { value: 1 }, { 'if-match': ifMatch });
      assertProblem(refused, 412, 'precondition_failed');
    }
    assert.deepEqual((await api.get(url)).body, collection);
  });

  test('DELETE one with If-Match on a missing key is 404 entitlement_not_found', async () => {
    // RFC 9110 13.2.1: preconditions are ignored when the answer without them would not be 2xx.
    const { one } = await planWithEntitlements();
    assertProblem(await api.delete(one('towels'), { 'if-match': '*' }), 404, 'entitlement_not_found');
  });

  test('two PUTs of the collection at once with the same If-Match: exactly one 200 and one 412', async () => {
    const { url, etag } = await planWithEntitlements();
    const answers = await Promise.all([
      api.put(url, { entitlements: { guest_passes: 10 } }, { 'if-match': etag }),
      api.put(url, { entitlements: { guest_passes: 20 } }, { 'if-match': etag }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 412], answers.map((a) => a.text).join('\n'));
    const winner = answers.find((a) => a.status === 200) as TestResponse;
    assertProblem(answers.find((a) => a.status === 412) as TestResponse, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, winner.body);
  });

  test('two PUTs of one entitlement at once with the same If-Match: exactly one 200 and one 412', async () => {
    const { url, one } = await planWithEntitlements();
    const etag = etagOf(await api.put(one('sauna'), { value: true }));
    const answers = await Promise.all([
      api.put(one('sauna'), { value: 'weekdays' }, { 'if-match': etag }),
      api.put(one('sauna'), { value: 'weekends' }, { 'if-match': etag }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 412], answers.map((a) => a.text).join('\n'));
    const winner = answers.find((a) => a.status === 200) as TestResponse;
    const stored = (await api.get(url)).body.entitlements.find((e: { key: string }) => e.key === 'sauna');
    assert.deepEqual(stored, winner.body);
  });
});
