import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, describeEachDialect } from '../../../test/harness.js';

describeEachDialect('plans: list', (api) => {
  const plansUrl = (facility: number) => `/admin/facilities/${facility}/plans`;

  async function createPlan(facility: number, body: Record<string, unknown>) {
    const response = await api.post(plansUrl(facility), body);
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  const names = (plans: { name: string }[]) => plans.map((p) => p.name);

  /** An active, an inactive and a soft-deleted plan. */
  async function threeKinds(facility: number) {
    const active = await createPlan(facility, { name: 'Active' });
    const inactive = await createPlan(facility, { name: 'Inactive', is_active: false });
    const archived = await createPlan(facility, { name: 'Archived' });
    assert.equal((await api.delete(`${plansUrl(facility)}/${archived.id}`)).status, 204);
    return { active, inactive, archived };
  }

  test('the list answers {plans, next_cursor} with full plans', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { name: 'Gold', price_amount: 100 });
    const response = await api.get(plansUrl(facility));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { plans: [plan], next_cursor: null });
  });

  test('without include_inactive the list holds active plans only', async () => {
    const facility = api.newFacility();
    await threeKinds(facility);
    assert.deepEqual(names((await api.get(plansUrl(facility))).body.plans), ['Active']);
    assert.deepEqual(names((await api.get(`${plansUrl(facility)}?include_inactive=false`)).body.plans), [
      'Active',
    ]);
  });

  test('include_inactive=true lists inactive and soft-deleted plans too', async () => {
    const facility = api.newFacility();
    const { archived } = await threeKinds(facility);
    const response = await api.get(`${plansUrl(facility)}?include_inactive=true`);
    assert.equal(response.status, 200);
    assert.deepEqual(names(response.body.plans), ['Active', 'Inactive', 'Archived']);
    const listed = response.body.plans.find((p: { id: number }) => p.id === archived.id);
    assert.equal(listed.is_active, false);
    assert.match(listed.deleted_at, /Z$/);
    assert.equal(response.body.plans[1].deleted_at, null);
  });

  test('include_inactive takes only true or false', async () => {
    const facility = api.newFacility();
    for (const value of ['abc', '1', 'TRUE', 'yes', '']) {
      assertInvalid(await api.get(`${plansUrl(facility)}?include_inactive=${value}`), 'include_inactive');
    }
  });

  test('sport_id filters exactly, and combines with include_inactive', async () => {
    const facility = api.newFacility();
    await createPlan(facility, { name: 'Tennis', sport_id: 1 });
    await createPlan(facility, { name: 'Tennis off', sport_id: 1, is_active: false });
    await createPlan(facility, { name: 'Swim', sport_id: 2 });
    await createPlan(facility, { name: 'All sports' });
    assert.deepEqual(names((await api.get(`${plansUrl(facility)}?sport_id=1`)).body.plans), ['Tennis']);
    assert.deepEqual(
      names((await api.get(`${plansUrl(facility)}?sport_id=1&include_inactive=true`)).body.plans),
      ['Tennis', 'Tennis off'],
    );
    assert.deepEqual(names((await api.get(`${plansUrl(facility)}?sport_id=3`)).body.plans), []);
  });

  test('sport_id must be a positive integer', async () => {
    const facility = api.newFacility();
    for (const value of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999']) {
      assertInvalid(await api.get(`${plansUrl(facility)}?sport_id=${value}`), 'sport_id');
    }
  });

  test('a facility lists only its own plans', async () => {
    const mine = api.newFacility();
    const other = api.newFacility();
    await createPlan(mine, { name: 'Mine' });
    await createPlan(other, { name: 'Theirs' });
    assert.deepEqual(names((await api.get(plansUrl(mine))).body.plans), ['Mine']);
  });

  test('the list is ordered by id', async () => {
    const facility = api.newFacility();
    for (const name of ['Charlie', 'alpha', 'Bravo']) await createPlan(facility, { name });
    const plans = (await api.get(plansUrl(facility))).body.plans;
    assert.deepEqual(names(plans), ['Charlie', 'alpha', 'Bravo']);
    const ids = plans.map((p: { id: number }) => p.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
  });

  test('limit pages the list; walking next_cursor visits every plan once, in order', async () => {
    const facility = api.newFacility();
    const created = [];
    for (let i = 1; i <= 7; i++) created.push((await createPlan(facility, { name: `Plan ${i}` })).id);
    const seen: number[] = [];
    const pageSizes: number[] = [];
    let url = `${plansUrl(facility)}?limit=3`;
    for (;;) {
      const page = await api.get(url);
      assert.equal(page.status, 200, page.text);
      pageSizes.push(page.body.plans.length);
      seen.push(...page.body.plans.map((p: { id: number }) => p.id));
      if (page.body.next_cursor === null) break;
      assert.equal(typeof page.body.next_cursor, 'string');
      url = `${plansUrl(facility)}?limit=3&cursor=${encodeURIComponent(page.body.next_cursor)}`;
    }
    assert.deepEqual(pageSizes, [3, 3, 1]);
    assert.deepEqual(seen, created);
  });

  test('a page that ends exactly at the last plan has next_cursor null', async () => {
    const facility = api.newFacility();
    for (let i = 1; i <= 2; i++) await createPlan(facility, { name: `Plan ${i}` });
    const page = await api.get(`${plansUrl(facility)}?limit=2`);
    assert.equal(page.body.plans.length, 2);
    assert.equal(page.body.next_cursor, null);
  });

  test('the cursor keeps the filters of the request it is used with', async () => {
    const facility = api.newFacility();
    await createPlan(facility, { name: 'A' });
    await createPlan(facility, { name: 'B', is_active: false });
    await createPlan(facility, { name: 'C' });
    const first = await api.get(`${plansUrl(facility)}?limit=1`);
    const second = await api.get(`${plansUrl(facility)}?limit=1&cursor=${first.body.next_cursor}`);
    assert.deepEqual(names(second.body.plans), ['C']);
    assert.equal(second.body.next_cursor, null);
  });

  test('limit must be 1 to 1000; the default page is 100', async () => {
    const facility = api.newFacility();
    for (const value of ['0', '1001', '-1', 'abc', '1.5', '1e3']) {
      assertInvalid(await api.get(`${plansUrl(facility)}?limit=${value}`), 'limit');
    }
    assert.equal((await api.get(`${plansUrl(facility)}?limit=1000`)).status, 200);
    assert.equal((await api.get(`${plansUrl(facility)}?limit=1`)).status, 200);
    for (let i = 1; i <= 101; i++) await createPlan(facility, { name: `Plan ${i}` });
    const page = await api.get(plansUrl(facility));
    assert.equal(page.body.plans.length, 100);
    assert.equal(typeof page.body.next_cursor, 'string');
  });

  test('a cursor the service did not issue is 400', async () => {
    const facility = api.newFacility();
    const forged = Buffer.from('id:0').toString('base64url');
    for (const cursor of ['abc', 'bm90LWEtY3Vyc29y', forged, '%20']) {
      assertInvalid(await api.get(`${plansUrl(facility)}?cursor=${cursor}`), 'cursor');
    }
  });
});
