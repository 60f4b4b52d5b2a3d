/**
 * Input that is odd rather than wrong in one field: bytes that are not
 * UTF-8, bodies nested deep or holding many keys, validation problems by the
 * thousand, path parameters longer than the router takes, requests for the
 * docs' files that the static server refuses, and bodiless requests that
 * still say JSON. Each gets a clear 4xx problem, never a 500.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertInvalid, assertProblem, describeEachDialect } from './harness.js';
import { raw } from './http-rules.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** `{"name": [[…"x"…]]}` with `depth` objects and arrays in all. */
function nested(depth: number): string {
  return `{"name":${'['.repeat(depth - 1)}"x"${']'.repeat(depth - 1)}}`;
}

/** An object of `count` unknown keys. */
function manyKeys(count: number, prefix = 'unknown_'): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i]));
}

describeEachDialect('input limits', (api) => {
  /** A facility with a plan and a member, and a URL of every operation with a body. */
  async function bodyOperations() {
    const facility = api.newFacility();
    const base = `/admin/facilities/${facility}`;
    const plan = await api.post(`${base}/plans`, { name: 'Plan' });
    const member = await api.post(`${base}/members`, { first_name: 'Ann' });
    assert.equal(member.status, 201, member.text);
    const operations: [string, string][] = [
      ['POST', `${base}/plans`],
      ['PATCH', `${base}/plans/${plan.body.id}`],
      ['PUT', `${base}/plans/${plan.body.id}/entitlements`],
      ['PUT', `${base}/plans/${plan.body.id}/entitlements/towel`],
      ['POST', `${base}/members`],
      ['PATCH', `${base}/members/${member.body.id}`],
      ['PATCH', `${base}/policy`],
    ];
    return { facility, base, plan: plan.body.id as number, member: member.body.id as number, operations };
  }

  /** What the facility holds, as a user reads it. */
  async function contents(base: string, plan: number) {
    const reads = await Promise.all(
      [
        `${base}/plans?include_inactive=true`,
        `${base}/plans/${plan}/entitlements`,
        `${base}/members`,
        `${base}/policy`,
      ].map((url) => api.get(url)),
    );
    return reads.map((read) => read.body);
  }

  test('bytes that are not UTF-8 in a JSON body are 400 malformed_json on every operation, and nothing is written', async () => {
    const { base, plan, operations } = await bodyOperations();
    const before = await contents(base, plan);
    const invalid = [
      [0xff],
      [0xc0, 0xaf],
      [0x80],
      [0xe2, 0x82],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
    ];
    for (const [method, url] of operations) {
      for (const bytes of invalid) {
        const payload = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(bytes), Buffer.from('"}')]);
        const response = await raw(api, method, url, { payload, headers: JSON_TYPE });
        const problem = assertProblem(response, 400, 'malformed_json');
        assert.match(problem.detail, /UTF-8/, `${method} ${url} ${bytes}`);
      }
    }
    assert.deepEqual(await contents(base, plan), before);
    // Text in UTF-8, multi-byte characters included, is read as sent.
    const kept = await raw(api, 'POST', `${base}/plans`, {
      payload: Buffer.from('{"name":"Zoë 🏸 café"}', 'utf8'),
      headers: JSON_TYPE,
    });
    assert.equal(kept.status, 201, kept.text);
    assert.equal(kept.body.name, 'Zoë 🏸 café');
  });

  test('a GET, HEAD or DELETE that says Content-Type JSON but sends no body is served', async () => {
    const { base, plan } = await bodyOperations();
    await api.put(`${base}/plans/${plan}/entitlements/towel`, { value: true });
    await api.put(`${base}/plans/${plan}/entitlements/sauna`, { value: true });
    // Content-Length: 0, and no Content-Length at all.
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', `${base}/plans/${plan}`, { ...JSON_TYPE, 'content-length': '0' }, 200],
      ['GET', `${base}/plans/${plan}`, JSON_TYPE, 200],
      ['HEAD', `${base}/plans/${plan}`, { ...JSON_TYPE, 'content-length': '0' }, 200],
      ['DELETE', `${base}/plans/${plan}/entitlements/towel`, { ...JSON_TYPE, 'content-length': '0' }, 204],
      ['DELETE', `${base}/plans/${plan}/entitlements/sauna`, JSON_TYPE, 204],
    ];
    for (const [method, url, headers, status] of cases) {
      const response = await raw(
        api,
        method,
        url,
        headers['content-length'] ? { payload: '', headers } : { headers },
      );
      assert.equal(response.status, status, `${method} ${JSON.stringify(headers)}: ${response.text}`);
    }
    assert.deepEqual((await api.get(`${base}/plans/${plan}/entitlements`)).body, { entitlements: [] });
    // OPTIONS is not served: 405 whatever the headers say about a body.
    const options = await raw(api, 'OPTIONS', `${base}/plans`, { payload: '', headers: JSON_TYPE });
    assertProblem(options, 405, 'method_not_allowed');
  });

  test('a body nested more than 32 levels is 400 naming the limit on every operation; 32 levels reach validation', async () => {
    const { base, plan, operations } = await bodyOperations();
    const before = await contents(base, plan);
    for (const [method, url] of operations) {
      for (const payload of [nested(33), nested(100_000), `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`]) {
        const response = await raw(api, method, url, { payload, headers: JSON_TYPE });
        const problem = assertInvalid(response, '');
        assert.deepEqual(problem.errors, [
          { location: 'body', field: '', message: 'is nested more than 32 levels deep (objects and arrays)' },
        ]);
      }
    }
    assert.deepEqual(await contents(base, plan), before);
    const deepest = await raw(api, 'POST', `${base}/plans`, { payload: nested(32), headers: JSON_TYPE });
    assert.deepEqual(assertInvalid(deepest, '/name').errors, [
      { location: 'body', field: '/name', message: 'must be string' },
    ]);
  });

  test('a body of more than 1,000 keys and array items is 400 naming the limit, in a short answer; 1,000 reach validation', async () => {
    const { base, plan, operations } = await bodyOperations();
    const over = [
      // 23,000 keys in 182 KB: under the body limit.
      JSON.stringify(Object.fromEntries(Array.from({ length: 23_000 }, (_, i) => [i.toString(36), 1]))),
      JSON.stringify({ name: 'x', description: Array(1000).fill('y') }),
      JSON.stringify({ entitlements: Array(60_000).fill(1) }),
    ];
    for (const [method, url] of operations) {
      for (const payload of over) {
        const response = await raw(api, method, url, { payload, headers: JSON_TYPE });
        const problem = assertInvalid(response, '');
        assert.equal(problem.errors[0].message, 'has more than 1000 keys and array items in all');
        assert.ok(response.text.length < 1000, `${method} ${url}: ${response.text.length} bytes`);
      }
    }
    const atLimit = await api.post(`${base}/plans`, { name: 'x', ...manyKeys(999) });
    assertInvalid(atLimit, '/unknown_0', '/unknown_99');
    assert.deepEqual(
      (await contents(base, plan))[0].plans.map((p: { name: string }) => p.name),
      ['Plan'],
    );
  });

  test('a validation problem lists at most 100 errors and says in errors_omitted how many more there were', async () => {
    const facility = api.newFacility();
    const response = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: 'Ann',
      ...manyKeys(250),
    });
    const problem = assertInvalid(response, '/unknown_0');
    assert.equal(problem.errors.length, 100);
    assert.equal(problem.errors_omitted, 150);
    assert.match(problem.detail, /; and 150 more problems$/);
    // Exactly 100 problems: all listed, and no errors_omitted.
    const hundred = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: 'Ann',
      ...manyKeys(100),
    });
    assert.equal(assertInvalid(hundred).errors.length, 100);
    assert.equal('errors_omitted' in hundred.body, false);
  });

  test('a path parameter over 1,000 characters is 400 validation_error on every endpoint, as is one of 1,000', async () => {
    const { facility, plan } = await bodyOperations();
    for (const length of [1000, 1001, 5000]) {
      const long = '1'.repeat(length);
      const cases: [string, string][] = [
        ['GET', `/admin/facilities/${long}/plans`],
        ['POST', `/admin/facilities/${long}/members`],
        ['GET', `/admin/facilities/${facility}/plans/${long}`],
        ['DELETE', `/admin/facilities/${facility}/members/${long}`],
        ['PATCH', `/admin/facilities/${facility}/members/${long}`],
        ['PUT', `/admin/facilities/${facility}/plans/${plan}/entitlements/${'k'.repeat(length)}`],
        ['DELETE', `/admin/facilities/${facility}/plans/${plan}/entitlements/${'k'.repeat(length)}`],
        ['GET', `/admin/facilities/${long}/policy`],
      ];
      for (const [method, url] of cases) {
        const response = await raw(api, method, url, {
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}', headers: JSON_TYPE }),
        });
        const problem = assertProblem(response, 400, 'validation_error');
        assert.equal(
          problem.errors[0].location,
          'path',
          `${method} ${length}: ${response.text.slice(0, 300)}`,
        );
      }
    }
  });

  test('a long last segment on a path served only for other methods is 405 with Allow, however long', async () => {
    const { facility, plan } = await bodyOperations();
    for (const length of [999, 1001, 5000]) {
      const url = `/admin/facilities/${facility}/plans/${plan}/entitlements/${'k'.repeat(length)}`;
      const response = await api.get(url);
      assertProblem(response, 405, 'method_not_allowed');
      assert.equal(response.headers.allow, 'PUT, DELETE');
    }
  });

  test('a docs path the static server refuses or cannot find is 404 not_found', async () => {
    for (const url of [
      '/docs/static/%00',
      '/docs/static/index.html%00.js',
      '/docs/static//index.html',
      '/docs/static/.env',
      '/docs/static/nothing/',
      `/docs/static/${'a'.repeat(5000)}`,
    ]) {
      assertProblem(await api.get(url), 404, 'not_found');
    }
    assert.equal((await api.get('/docs/static/swagger-ui.css')).status, 200);
  });

  test('a docs file asked for with a failed precondition is 412, with a range past its end 416', async () => {
    const url = '/docs/static/swagger-ui.css';
    assertProblem(await api.get(url, { 'if-match': '"another"' }), 412, 'precondition_failed');
    assertProblem(
      await api.get(url, { 'if-unmodified-since': 'Mon, 01 Jan 1990 00:00:00 GMT' }),
      412,
      'precondition_failed',
    );
    const range = await api.get(url, { range: 'bytes=99999999-' });
    assertProblem(range, 416, 'range_not_satisfiable');
    assert.match(String(range.headers['content-range']), /^bytes \*\/\d+$/);
  });
});

describeEachDialect(
  'input limits: settings',
  (api) => {
    test('JSON_MAX_DEPTH sets how deep a body may nest', async () => {
      const url = `/admin/facilities/${api.newFacility()}/plans`;
      const five = await raw(api, 'POST', url, { payload: nested(5), headers: JSON_TYPE });
      assert.equal(
        assertInvalid(five, '').errors[0].message,
        'is nested more than 4 levels deep (objects and arrays)',
      );
      assertInvalid(await raw(api, 'POST', url, { payload: nested(4), headers: JSON_TYPE }), '/name');
    });

    test('JSON_MAX_KEYS sets how many keys and array items a body may hold', async () => {
      const url = `/admin/facilities/${api.newFacility()}/plans`;
      const over = await api.post(url, manyKeys(257));
      assert.equal(
        assertInvalid(over, '').errors[0].message,
        'has more than 256 keys and array items in all',
      );
      assertInvalid(await api.post(url, manyKeys(256)), '/unknown_0');
    });

    test('PROBLEM_MAX_ERRORS sets how many errors a problem lists', async () => {
      const url = `/admin/facilities/${api.newFacility()}/plans`;
      const problem = assertInvalid(await api.post(url, { name: 'x', ...manyKeys(5) }));
      assert.equal(problem.errors.length, 3);
      assert.equal(problem.errors_omitted, 2);
    });
  },
  { jsonMaxDepth: 4, jsonMaxKeys: 256, problemMaxErrors: 3 },
);
