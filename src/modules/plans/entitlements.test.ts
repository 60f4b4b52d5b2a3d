import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from '../../../test/harness.js';

/** Values of every JSON type an entitlement may hold, as a client sends them. */
const VALUES = [
  { key: 'a_string_two', value: '2' },
  { key: 'b_number_two', value: 2 },
  { key: 'c_fraction', value: 2.5 },
  { key: 'd_zero', value: 0 },
  { key: 'e_negative', value: -1 },
  { key: 'f_tiny', value: 1e-7 },
  { key: 'g_true', value: true },
  { key: 'h_false', value: false },
  { key: 'i_empty', value: '' },
  { key: 'j_longest', value: 'x'.repeat(500) },
  { key: 'k_big', value: 1e300 },
];

const manyEntitlements = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: `key_${String(i).padStart(3, '0')}`, value: i }));

describeEachDialect('entitlements: the collection', (api) => {
  const entitlementsUrl = (facility: number, planId: number) =>
    `/admin/facilities/${facility}/plans/${planId}/entitlements`;

  async function createPlan(facility: number, body: Record<string, unknown> = {}) {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Gold', ...body });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  async function replace(facility: number, planId: number, entitlements: unknown) {
    return api.put(entitlementsUrl(facility, planId), { entitlements });
  }

  test('a new plan has no entitlements', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await api.get(entitlementsUrl(facility, plan.id));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { entitlements: [] });
  });

  test('PUT with the array form replaces the set and answers 200 with it, sorted by key', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await replace(facility, plan.id, [
      { key: 'lockers', value: 1 },
      { key: 'Guest', value: 'yes' },
      { key: 'a.b-c_d', value: true },
      { key: '9lives', value: 9 },
    ]);
    assert.equal(response.status, 200, response.text);
    const expected = {
      entitlements: [
        { key: '9lives', value: 9 },
        { key: 'Guest', value: 'yes' },
        { key: 'a.b-c_d', value: true },
        { key: 'lockers', value: 1 },
      ],
    };
    assert.deepEqual(response.body, expected);
    assert.deepEqual((await api.get(entitlementsUrl(facility, plan.id))).body, expected);
  });

  test('PUT with the map form means the same as the array form', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await replace(facility, plan.id, { lockers: 1, guest_passes: 2, sauna: true });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      entitlements: [
        { key: 'guest_passes', value: 2 },
        { key: 'lockers', value: 1 },
        { key: 'sauna', value: true },
      ],
    });
  });

  test('values come back with the JSON type they were stored with', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const put = await replace(facility, plan.id, VALUES);
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.entitlements, VALUES);
    const read = await api.get(entitlementsUrl(facility, plan.id));
    assert.deepEqual(read.body.entitlements, VALUES);
    assert.match(read.text, /"value":"2"/);
    assert.match(read.text, /"value":2[,}]/);
  });

  test('PUT replaces the whole set: keys left out are removed', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 1 });
    const response = await replace(facility, plan.id, { guest_passes_per_month: 5, sauna: true });
    assert.deepEqual(response.body, {
      entitlements: [
        { key: 'guest_passes_per_month', value: 5 },
        { key: 'sauna', value: true },
      ],
    });
  });

  test('PUT with an empty array or an empty map clears the set', async () => {
    const facility = api.newFacility();
    for (const empty of [[], {}]) {
      const plan = await createPlan(facility, { name: `Plan ${JSON.stringify(empty)}`, template_id: 1 });
      const response = await replace(facility, plan.id, empty);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { entitlements: [] });
      assert.deepEqual((await api.get(entitlementsUrl(facility, plan.id))).body, { entitlements: [] });
    }
  });

  test('keys are case-sensitive', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const response = await replace(facility, plan.id, { sauna: true, Sauna: false });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.entitlements, [
      { key: 'Sauna', value: false },
      { key: 'sauna', value: true },
    ]);
  });

  test('duplicate keys are 400 and change nothing', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 1 });
    const before = (await api.get(entitlementsUrl(facility, plan.id))).body;
    const response = await replace(facility, plan.id, [
      { key: 'sauna', value: true },
      { key: 'lockers', value: 1 },
      { key: 'sauna', value: false },
    ]);
    assertInvalid(response, '/entitlements/2/key');
    assert.deepEqual((await api.get(entitlementsUrl(facility, plan.id))).body, before);
  });

  test('at most 100 entitlements: 100 is fine, 101 is 400 in either form', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    const hundred = await replace(facility, plan.id, manyEntitlements(100));
    assert.equal(hundred.status, 200, hundred.text);
    assert.equal(hundred.body.entitlements.length, 100);
    assertInvalid(await replace(facility, plan.id, manyEntitlements(101)), '/entitlements');
    const map = Object.fromEntries(manyEntitlements(101).map((e) => [e.key, e.value]));
    assertInvalid(await replace(facility, plan.id, map), '/entitlements');
    assert.equal((await api.get(entitlementsUrl(facility, plan.id))).body.entitlements.length, 100);
  });

  test('a key must be 1 to 64 of A-Z a-z 0-9 _ . -, starting with a letter or digit', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const key of ['_guest', '.guest', '-guest', 'x'.repeat(65), 'guest passes', '', 'gäste', 'a/b']) {
      assertInvalid(await replace(facility, plan.id, [{ key, value: 1 }]), '/entitlements/0/key');
      const mapResponse = await replace(facility, plan.id, { [key]: 1 });
      assert.equal(mapResponse.status, 400, `map key ${JSON.stringify(key)}: ${mapResponse.text}`);
    }
    const longest = await replace(facility, plan.id, [{ key: 'x'.repeat(64), value: 1 }]);
    assert.equal(longest.status, 200, longest.text);
  });

  test('a value must be a string up to 500, a finite number or a boolean', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    for (const value of [null, { n: 1 }, [1], 'x'.repeat(501)]) {
      assertInvalid(await replace(facility, plan.id, [{ key: 'k', value }]), '/entitlements/0/value');
      const mapResponse = await replace(facility, plan.id, { k: value });
      assert.equal(mapResponse.status, 400, `map value ${JSON.stringify(value)}: ${mapResponse.text}`);
    }
    const infinite = await api.put(
      entitlementsUrl(facility, plan.id),
      '{"entitlements":[{"key":"k","value":1e400}]}',
    );
    assertInvalid(infinite, '/entitlements/0/value');
    assert.deepEqual((await api.get(entitlementsUrl(facility, plan.id))).body, { entitlements: [] });
  });

  test('an entry needs key and value and nothing else', async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility);
    assertInvalid(await replace(facility, plan.id, [{ key: 'k' }]), '/entitlements/0/value');
    assertInvalid(await replace(facility, plan.id, [{ value: 1 }]), '/entitlements/0/key');
    assertInvalid(
      await replace(facility, plan.id, [{ key: 'k', value: 1, note: 'x' }]),
      '/entitlements/0/note',
    );
    assertInvalid(await api.put(entitlementsUrl(facility, plan.id), {}), '/entitlements');
    assertInvalid(await api.put(entitlementsUrl(facility, plan.id), { entitlements: [], x: 1 }), '/x');
    assertInvalid(await replace(facility, plan.id, 'sauna'), '/entitlements');
  });

  test("an unknown plan, or another facility's, is 404 plan_not_found", async () => {
    const owner = api.newFacility();
    const stranger = api.newFacility();
    const plan = await createPlan(owner, { template_id: 1 });
    for (const [facility, planId] of [
      [stranger, plan.id],
      [owner, 99_999_999],
    ]) {
      assertProblem(await api.get(entitlementsUrl(facility, planId)), 404, 'plan_not_found');
      assertProblem(await replace(facility, planId, []), 404, 'plan_not_found');
    }
    assert.equal((await api.get(entitlementsUrl(owner, plan.id))).body.entitlements.length, 3);
  });

  test("a soft-deleted plan's entitlements can still be read", async () => {
    const facility = api.newFacility();
    const plan = await createPlan(facility, { template_id: 12 });
    await api.delete(`/admin/facilities/${facility}/plans/${plan.id}`);
    const response = await api.get(entitlementsUrl(facility, plan.id));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      entitlements: [
        { key: 'gear_rental_included', value: false },
        { key: 'wall_access', value: 'bouldering' },
      ],
    });
  });

  test('bad plan ids are 400 naming plan_id', async () => {
    const facility = api.newFacility();
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999']) {
      assertInvalid(await api.get(`/admin/facilities/${facility}/plans/${id}/entitlements`), 'plan_id');
    }
  });
});
