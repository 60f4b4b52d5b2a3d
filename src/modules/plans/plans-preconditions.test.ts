/**
 * "Concurrency and retries" for plans: the ETag of every plan response and
 * If-Match on PATCH and DELETE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertInvalid,
  assertProblem,
  describeEachDialect,
  type TestResponse,
} from '../../../test/harness.js';

const STRONG_ETAG = /^"[A-Za-z0-9_-]+"$/;

function etagOf(response: TestResponse): string {
  const etag = response.headers.etag;
  assert.equal(typeof etag, 'string', `expected an ETag on ${response.status}: ${response.text}`);
  return etag as string;
}

describeEachDialect('plans: ETag and If-Match', (api) => {
  const planUrl = (facility: number, id: number) => `/admin/facilities/${facility}/plans/${id}`;

  async function createPlan(facility: number, body: Record<string, unknown> = {}) {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold', ...body });
    assert.equal(response.status, 201, response.text);
    return { plan: response.body, etag: etagOf(response), url: planUrl(facility, response.body.id) };
  }

  test('GET, POST and PATCH answer a strong ETag that equals the next GET', async () => {
    const { etag: created, url } = await createPlan(api.newFacility());
    assert.match(created, STRONG_ETAG);
    const read = await api.get(url);
    assert.equal(etagOf(read), created);
    const patched = await api.patch(url, { price_amount: 500 });
    assert.equal(patched.status, 200);
    assert.match(etagOf(patched), STRONG_ETAG);
    assert.equal(etagOf(await api.get(url)), etagOf(patched));
  });

  test('a plan created from a template answers the same ETag as the next GET', async () => {
    const { etag, url } = await createPlan(api.newFacility(), { template_id: 1 });
    assert.equal(etagOf(await api.get(url)), etag);
  });

  test('the ETag changes with a real change and stays with a no-op', async () => {
    const { plan, etag, url } = await createPlan(api.newFacility(), { price_amount: 100 });
    assert.equal(etagOf(await api.patch(url, {})), etag);
    assert.equal(etagOf(await api.patch(url, { name: plan.name, price_amount: 100 })), etag);
    const changed = etagOf(await api.patch(url, { price_amount: 101 }));
    assert.notEqual(changed, etag);
    assert.equal(etagOf(await api.get(url)), changed);
  });

  test('the ETag changes when the plan is archived and when it is restored', async () => {
    const { etag, url } = await createPlan(api.newFacility());
    assert.equal((await api.delete(url)).status, 204);
    const archived = etagOf(await api.get(url));
    assert.notEqual(archived, etag);
    const restored = etagOf(await api.patch(url, { is_active: true }));
    assert.notEqual(restored, archived);
  });

  test('PATCH with a stale If-Match is 412 precondition_failed and changes nothing', async () => {
    const { etag: stale, url } = await createPlan(api.newFacility());
    const current = await api.patch(url, { price_amount: 300 });
    const refused = await api.patch(url, { price_amount: 900, name: 'Platinum' }, { 'if-match': stale });
    assertProblem(refused, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, current.body);
  });

  test('soft and hard DELETE with a stale If-Match are 412 and the plan stays as it was', async () => {
    const { etag: stale, url } = await createPlan(api.newFacility());
    const current = await api.patch(url, { description: 'changed' });
    assertProblem(await api.delete(url, { 'if-match': stale }), 412, 'precondition_failed');
    assertProblem(
      await api.delete(`${url}?hard_delete=true`, { 'if-match': stale }),
      412,
      'precondition_failed',
    );
    const read = await api.get(url);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, current.body);
  });

  test('PATCH and DELETE with the current ETag succeed', async () => {
    const { etag, url } = await createPlan(api.newFacility());
    const patched = await api.patch(url, { price_amount: 1 }, { 'if-match': etag });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.price_amount, 1);
    assert.equal((await api.delete(url, { 'if-match': etagOf(patched) })).status, 204);
    assert.notEqual((await api.get(url)).body.deleted_at, null);
    const archived = etagOf(await api.get(url));
    assert.equal((await api.delete(`${url}?hard_delete=true`, { 'if-match': archived })).status, 204);
    assertProblem(await api.get(url), 404, 'plan_not_found');
  });

  test('If-Match: * succeeds on PATCH and DELETE whatever the ETag', async () => {
    const { url } = await createPlan(api.newFacility());
    await api.patch(url, { price_amount: 7 });
    const patched = await api.patch(url, { price_amount: 8 }, { 'if-match': '*' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await api.delete(`${url}?hard_delete=true`, { 'if-match': '*' })).status, 204);
    assertProblem(await api.get(url), 404, 'plan_not_found');
  });

  test('a list in If-Match succeeds when one of its tags is current', async () => {
    const { etag, url } = await createPlan(api.newFacility());
    const patched = await api.patch(url, { price_amount: 2 }, { 'if-match': `"nope", ${etag}` });
    assert.equal(patched.status, 200, patched.text);
  });

  test('a weak tag never matches, even with the current opaque value', async () => {
    const { plan, etag, url } = await createPlan(api.newFacility());
    const weak = `W/${etag}`;
    assertProblem(
      await api.patch(url, { price_amount: 3 }, { 'if-match': weak }),
      412,
      'precondition_failed',
    );
    assertProblem(await api.delete(url, { 'if-match': weak }), 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, plan);
  });

  test('an empty If-Match is 400 validation_error naming the header, and nothing is written', async () => {
    const { plan, url } = await createPlan(api.newFacility());
    const empty = { 'if-match': '' };
    for (const refused of [
      await api.patch(url, { price_amount: 5 }, empty),
      await api.delete(url, empty),
      await api.delete(`${url}?hard_delete=true`, empty),
    ]) {
      const body = assertInvalid(refused, 'if-match');
      assert.ok(
        body.errors.some((e: { location: string }) => e.location === 'header'),
        refused.text,
      );
    }
    assert.deepEqual((await api.get(url)).body, plan);
  });

  test('an If-Match over 1024 characters is 400 validation_error; 1024 is read as a tag', async () => {
    const { plan, url } = await createPlan(api.newFacility());
    const tooLong = { 'if-match': `"${'a'.repeat(1023)}"` };
    assertInvalid(await api.patch(url, { price_amount: 5 }, tooLong), 'if-match');
    assertInvalid(await api.delete(url, tooLong), 'if-match');
    const longest = { 'if-match': `"${'a'.repeat(1022)}"` };
    assertProblem(await api.patch(url, { price_amount: 5 }, longest), 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, plan);
  });

  test('If-Match on a plan that does not exist is 404 plan_not_found', async () => {
    const facility = api.newFacility();
    const url = planUrl(facility, 99_999_999);
    assertProblem(await api.patch(url, { price_amount: 3 }, { 'if-match': '*' }), 404, 'plan_not_found');
    assertProblem(await api.delete(url, { 'if-match': '*' }), 404, 'plan_not_found');
  });

  test('two PATCHes at once with the same If-Match: exactly one 200 and one 412', async () => {
    const { etag, url } = await createPlan(api.newFacility());
    const answers = await Promise.all([
      api.patch(url, { price_amount: 11 }, { 'if-match': etag }),
      api.patch(url, { price_amount: 22 }, { 'if-match': etag }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 412], answers.map((a) => a.text).join('\n'));
    const winner = answers.find((a) => a.status === 200) as TestResponse;
    assertProblem(answers.find((a) => a.status === 412) as TestResponse, 412, 'precondition_failed');
    assert.deepEqual((await api.get(url)).body, winner.body);
  });
});
