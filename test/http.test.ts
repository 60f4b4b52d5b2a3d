/**
 * The HTTP rules that hold across every endpoint (contract: "General" and
 * "Errors"): routing, media types, body limits, request ids, problem bodies,
 * path and query parameter parsing, the OpenAPI document and the docs page.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { type Api, assertInvalid, assertProblem, describeEachDialect, type TestResponse } from './harness.js';

const PROBLEM_FIELDS = ['code', 'detail', 'instance', 'request_id', 'status', 'title', 'type'];
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_SAFE = '9007199254740991';

/** The 17 operations of the spec, as OpenAPI names them. */
const OPERATIONS = [
  'POST /admin/facilities/{facility_id}/plans',
  'GET /admin/facilities/{facility_id}/plans',
  'GET /admin/facilities/{facility_id}/plans/{plan_id}',
  'PATCH /admin/facilities/{facility_id}/plans/{plan_id}',
  'DELETE /admin/facilities/{facility_id}/plans/{plan_id}',
  'GET /admin/plan-templates',
  'GET /admin/facilities/{facility_id}/plans/{plan_id}/entitlements',
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements',
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}',
  'DELETE /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}',
  'POST /admin/facilities/{facility_id}/members',
  'GET /admin/facilities/{facility_id}/members',
  'GET /admin/facilities/{facility_id}/members/{member_id}',
  'PATCH /admin/facilities/{facility_id}/members/{member_id}',
  'DELETE /admin/facilities/{facility_id}/members/{member_id}',
  'GET /admin/facilities/{facility_id}/policy',
  'PATCH /admin/facilities/{facility_id}/policy',
];

/** A valid body for each operation that takes one. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /admin/facilities/{facility_id}/plans': { name: 'Valid plan' },
  'PATCH /admin/facilities/{facility_id}/plans/{plan_id}': {},
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements': { entitlements: [] },
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}': { value: 1 },
  'POST /admin/facilities/{facility_id}/members': { first_name: 'Valid' },
  'PATCH /admin/facilities/{facility_id}/members/{member_id}': {},
  'PATCH /admin/facilities/{facility_id}/policy': {},
};
const BODY_OPERATIONS = Object.keys(VALID_BODIES);

function split(operation: string): { method: string; path: string } {
  const [method, path] = operation.split(' ');
  return { method, path };
}

/** Fills a path template; ids not given are 1, the key is "guest_passes". */
function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => values[name] ?? (name === 'key' ? 'guest_passes' : '1'),
  );
}

/** A request with exactly the given headers and raw payload (the harness adds a JSON content type). */
async function raw(
  api: Api,
  method: string,
  url: string,
  options: { payload?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const response = await api.app.inject({
    method: method as 'GET',
    url,
    headers: options.headers ?? {},
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}

function allowOf(response: TestResponse): string[] {
  return String(response.headers.allow ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();
}

/** Exactly the problem fields, plus `errors` for validation errors. */
function assertProblemShape(response: TestResponse, instance: string) {
  const expected =
    response.body.code === 'validation_error' ? [...PROBLEM_FIELDS, 'errors'].sort() : PROBLEM_FIELDS;
  assert.deepEqual(Object.keys(response.body).sort(), expected, response.text);
  assert.equal(response.body.instance, instance);
  assert.equal(typeof response.body.title, 'string');
  assert.ok(response.body.title.length > 0);
  assert.ok(response.body.detail.length > 0);
  assert.equal(response.body.request_id, response.headers['x-request-id']);
}

describeEachDialect('HTTP rules', (api) => {
  async function newPlan(facility: number, name = 'Plan'): Promise<number> {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name });
    assert.equal(response.status, 201, response.text);
    return response.body.id;
  }
  async function newMember(facility: number): Promise<number> {
    const response = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann' });
    assert.equal(response.status, 201, response.text);
    return response.body.id;
  }
  /** A new facility with one plan and one member, and the path ids that reach them (for fill). */
  async function facilityWithPlanAndMember() {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    const ids = { facility_id: String(facility), plan_id: String(plan), member_id: String(member) };
    return { facility, plan, member, ids };
  }
  async function planNames(facility: number): Promise<string[]> {
    const response = await api.get(`/admin/facilities/${facility}/plans?include_inactive=true`);
    assert.equal(response.status, 200);
    return response.body.plans.map((p: { name: string }) => p.name);
  }

  // --- routing ---------------------------------------------------------------

  test('an unknown route is 404 not_found as problem+json', async () => {
    for (const [method, url] of [
      ['GET', '/nope'],
      ['GET', '/admin'],
      ['GET', '/admin/facilities'],
      ['GET', '/admin/facilities/1'],
      ['POST', '/admin/facilities/1/unknown'],
      ['GET', '/admin/plan-templates/1'],
      ['DELETE', '/admin/facilities/1/plans/1/entitlements/k/extra'],
      ['GET', '/admin/facilities/1/members/1/plans'],
    ]) {
      const response = await api.request(method, url);
      assertProblem(response, 404, 'not_found');
      assertProblemShape(response, url);
      assert.equal(response.headers.allow, undefined, `${method} ${url} has no Allow header`);
    }
  });

  test('the 404 instance is the path without the query', async () => {
    const response = await api.get('/nope/deeper?x=1&y=2');
    assertProblem(response, 404, 'not_found');
    assert.equal(response.body.instance, '/nope/deeper');
  });

  test('a known path with a wrong method is 405 with an Allow header of the right methods', async () => {
    const cases: [string, string, string[]][] = [
      ['PUT', '/admin/facilities/1/plans', ['GET', 'HEAD', 'POST']],
      ['DELETE', '/admin/facilities/1/plans', ['GET', 'HEAD', 'POST']],
      ['POST', '/admin/facilities/1/plans/1', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['PUT', '/admin/facilities/1/plans/1', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['POST', '/admin/facilities/1/policy', ['GET', 'HEAD', 'PATCH']],
      ['DELETE', '/admin/facilities/1/policy', ['GET', 'HEAD', 'PATCH']],
      ['DELETE', '/admin/plan-templates', ['GET', 'HEAD']],
      ['POST', '/admin/plan-templates', ['GET', 'HEAD']],
      ['POST', '/admin/facilities/1/plans/1/entitlements', ['GET', 'HEAD', 'PUT']],
      ['DELETE', '/admin/facilities/1/plans/1/entitlements', ['GET', 'HEAD', 'PUT']],
      ['GET', '/admin/facilities/1/plans/1/entitlements/guest_passes', ['DELETE', 'PUT']],
      ['PATCH', '/admin/facilities/1/plans/1/entitlements/guest_passes', ['DELETE', 'PUT']],
      ['PATCH', '/admin/facilities/1/members', ['GET', 'HEAD', 'POST']],
      ['PUT', '/admin/facilities/1/members/1', ['DELETE', 'GET', 'HEAD', 'PATCH']],
    ];
    for (const [method, url, allowed] of cases) {
      const response = await api.request(method, url);
      assertProblem(response, 405, 'method_not_allowed');
      assertProblemShape(response, url);
      assert.deepEqual(allowOf(response), allowed, `Allow for ${method} ${url}`);
      assert.ok(response.body.detail.includes(method), response.body.detail);
    }
  });

  test('405 does not depend on the id values and ignores the query for instance', async () => {
    const response = await api.request('PUT', '/admin/facilities/abc/plans?sport_id=1');
    assertProblem(response, 405, 'method_not_allowed');
    assert.deepEqual(allowOf(response), ['GET', 'HEAD', 'POST']);
    assert.equal(response.body.instance, '/admin/facilities/abc/plans');
  });

  test('every method an Allow header names is really served', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const planUrl = `/admin/facilities/${facility}/plans/${plan}`;
    const response = await api.request('POST', planUrl);
    assert.equal(response.status, 405);
    for (const method of allowOf(response)) {
      const probe = method === 'PATCH' ? await api.patch(planUrl, {}) : await api.request(method, planUrl);
      assert.notEqual(probe.status, 405, `${method} ${planUrl} answers ${probe.status}`);
      assert.notEqual(probe.status, 404, `${method} ${planUrl} answers ${probe.status}`);
    }
  });

  test('a 405 writes nothing', async () => {
    const facility = api.newFacility();
    await newPlan(facility, 'Existing');
    const response = await api.put(`/admin/facilities/${facility}/plans`, { name: 'Via PUT' });
    assertProblem(response, 405, 'method_not_allowed');
    assert.deepEqual(await planNames(facility), ['Existing']);
  });

  // --- media types and bodies ------------------------------------------------

  test('a body that is not JSON by its Content-Type is 415, on every operation with a body', async () => {
    for (const operation of BODY_OPERATIONS) {
      const { method, path } = split(operation);
      const url = fill(path, { facility_id: String(api.newFacility()) });
      const payload = JSON.stringify(VALID_BODIES[operation]);
      for (const contentType of [
        'text/plain',
        'text/plain; charset=utf-8',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'application/problem+json',
      ]) {
        const response = await raw(api, method, url, { payload, headers: { 'content-type': contentType } });
        assertProblem(response, 415, 'unsupported_media_type');
        assertProblemShape(response, url);
      }
      const none = await raw(api, method, url, { payload });
      assertProblem(none, 415, 'unsupported_media_type');
    }
  });

  test('a rejected media type writes nothing', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const text = await raw(api, 'POST', url, {
      payload: '{"name":"Text plan"}',
      headers: { 'content-type': 'text/plain' },
    });
    assertProblem(text, 415, 'unsupported_media_type');
    const none = await raw(api, 'POST', url, { payload: '{"name":"Bare plan"}' });
    assertProblem(none, 415, 'unsupported_media_type');
    assert.deepEqual(await planNames(facility), []);
    const policy = await raw(api, 'PATCH', `/admin/facilities/${facility}/policy`, {
      payload: '{"currency":"EUR"}',
      headers: { 'content-type': 'text/plain' },
    });
    assertProblem(policy, 415, 'unsupported_media_type');
    assert.equal((await api.get(`/admin/facilities/${facility}/policy`)).body.currency, 'USD');
  });

  test('application/json with a charset parameter, or in upper case, is accepted', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const variants = [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ];
    for (const [i, contentType] of variants.entries()) {
      const response = await raw(api, 'POST', url, {
        payload: JSON.stringify({ name: `Plan ${i}` }),
        headers: { 'content-type': contentType },
      });
      assert.equal(response.status, 201, `${contentType}: ${response.text}`);
      assert.equal(response.body.name, `Plan ${i}`);
    }
    assert.deepEqual(await planNames(facility), ['Plan 0', 'Plan 1', 'Plan 2']);
  });

  test('unparseable JSON is 400 malformed_json and writes nothing', async () => {
    const facility = api.newFacility();
    for (const operation of BODY_OPERATIONS) {
      const { method, path } = split(operation);
      const url = fill(path, { facility_id: String(facility) });
      for (const payload of [
        '{"name":',
        '{name: "x"}',
        "{'name':'x'}",
        '{"name":"x"}}',
        '{"name":"x",}',
        'nul',
        '{"a":1',
      ]) {
        const response = await raw(api, method, url, {
          payload,
          headers: { 'content-type': 'application/json' },
        });
        assertProblem(response, 400, 'malformed_json');
        assertProblemShape(response, url);
      }
    }
    assert.deepEqual(await planNames(facility), []);
    const members = await api.get(`/admin/facilities/${facility}/members`);
    assert.deepEqual(members.body.members, []);
  });

  test('an empty body with Content-Type JSON is 400 malformed_json', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const response = await raw(api, 'POST', url, {
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(response, 400, 'malformed_json');
  });

  test('a JSON body that is not an object is 400 validation_error, on every operation with a body', async () => {
    const { facility, plan, ids } = await facilityWithPlanAndMember();
    for (const operation of BODY_OPERATIONS) {
      const { method, path } = split(operation);
      const url = fill(path, ids);
      for (const payload of ['[]', '[{"name":"x"}]', '"text"', '5', '-1.5', 'true', 'null']) {
        const response = await raw(api, method, url, {
          payload,
          headers: { 'content-type': 'application/json' },
        });
        const body = assertInvalid(response, '');
        assert.equal(body.errors[0].location, 'body', `${operation} with ${payload}`);
        assertProblemShape(response, url);
      }
    }
    assert.deepEqual(await planNames(facility), ['Plan']);
    assert.deepEqual((await api.get(`/admin/facilities/${facility}/plans/${plan}/entitlements`)).body, {
      entitlements: [],
    });
  });

  test('a body nested 10,000 deep is 400 validation_error, not 500, on every operation with a body', async () => {
    const { ids } = await facilityWithPlanAndMember();
    const payload = `{"deep":${'['.repeat(10_000)}"x"${']'.repeat(10_000)}}`;
    for (const operation of BODY_OPERATIONS) {
      const { method, path } = split(operation);
      const url = fill(path, ids);
      const response = await raw(api, method, url, {
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assertProblem(response, 400, 'validation_error');
    }
  });

  test('a body naming __proto__ or constructor is 400 validation_error for an unknown field', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const proto = await api.post(url, '{"name":"Proto","__proto__":{"is_active":false}}');
    assertInvalid(proto, '/__proto__');
    const ctor = await api.post(url, '{"name":"Ctor","constructor":{"prototype":{"x":1}}}');
    assertInvalid(ctor, '/constructor');
    assert.deepEqual(await planNames(facility), []);
  });

  test('a body over 256 KiB is 413 payload_too_large, one under it is read', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const over = JSON.stringify({ name: 'Too big', description: 'x'.repeat(256 * 1024) });
    const tooLarge = await raw(api, 'POST', url, {
      payload: over,
      headers: { 'content-type': 'application/json', 'x-request-id': 'too-large-1' },
    });
    assertProblem(tooLarge, 413, 'payload_too_large');
    assertProblemShape(tooLarge, url);
    assert.equal(tooLarge.headers['x-request-id'], 'too-large-1');
    // Just under the limit: read and validated (description is at most 2000 characters).
    const under = JSON.stringify({ name: 'Big', description: 'x'.repeat(250 * 1024) });
    assertInvalid(await api.post(url, under), '/description');
    assert.deepEqual(await planNames(facility), []);
    const policy = await api.patch(`/admin/facilities/${facility}/policy`, {
      timezone: 'x'.repeat(300 * 1024),
    });
    assertProblem(policy, 413, 'payload_too_large');
  });

  test('a body with a request that takes none is ignored for GET', async () => {
    const facility = api.newFacility();
    const response = await api.request('GET', `/admin/facilities/${facility}/plans`, { anything: 1 });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { plans: [], next_cursor: null });
  });

  // --- request ids -------------------------------------------------------------

  test('every answer, success or problem, carries the API security headers', async () => {
    const facility = api.newFacility();
    const created = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Headers' });
    const answers = [
      created,
      await api.get(`/admin/facilities/${facility}/plans/${created.body.id}`),
      await api.get(`/admin/facilities/${facility}/plans/999999`),
      await api.get('/no/such/route'),
      await api.get('/healthz'),
    ];
    for (const answer of answers) {
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.equal(answer.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
      assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.equal(answer.headers['x-frame-options'], 'DENY');
    }
  });

  test('a valid X-Request-Id is echoed on success and on every kind of error', async () => {
    const facility = api.newFacility();
    const id = 'Abc.def_123-XYZ';
    const responses = [
      await api.get(`/admin/facilities/${facility}/plans`, { 'x-request-id': id }),
      await api.post(`/admin/facilities/${facility}/plans`, { name: 'With id' }, { 'x-request-id': id }),
      await api.get('/nope', { 'x-request-id': id }),
      await api.request('PUT', `/admin/facilities/${facility}/plans`, undefined, { 'x-request-id': id }),
      await api.get(`/admin/facilities/${facility}/plans/999999`, { 'x-request-id': id }),
      await api.get(`/admin/facilities/abc/plans`, { 'x-request-id': id }),
      await api.post(`/admin/facilities/${facility}/plans`, '{"name":', { 'x-request-id': id }),
      await raw(api, 'POST', `/admin/facilities/${facility}/plans`, {
        payload: '{}',
        headers: { 'content-type': 'text/plain', 'x-request-id': id },
      }),
      await api.delete(`/admin/facilities/${facility}/members/999999?hard_delete=true`, {
        'x-request-id': id,
      }),
    ];
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 201, 404, 405, 404, 400, 400, 415, 404],
    );
    for (const response of responses) {
      assert.equal(response.headers['x-request-id'], id, `${response.status}: ${response.text}`);
      if (response.status >= 400) assert.equal(response.body.request_id, id);
    }
  });

  test('X-Request-Id of 1 and of 128 allowed characters is kept', async () => {
    for (const id of ['a', '-', '.', '_', '9', 'x'.repeat(128), `${'A1._-'.repeat(25)}abc`]) {
      const response = await api.get('/admin/plan-templates?limit=1', { 'x-request-id': id });
      assert.equal(response.status, 200);
      assert.equal(response.headers['x-request-id'], id);
    }
  });

  test('an X-Request-Id that is too long or has other characters is replaced by a generated id', async () => {
    const offered = [
      'x'.repeat(129),
      'has space',
      'slash/id',
      'semi;colon',
      'quote"d',
      'ünïcödé',
      'tab\tid',
      'a+b',
      'id:1',
      '',
    ];
    const generated = new Set<string>();
    for (const id of offered) {
      for (const url of ['/admin/plan-templates?limit=1', '/nope']) {
        const response = await api.get(url, { 'x-request-id': id });
        const echoed = String(response.headers['x-request-id']);
        assert.notEqual(echoed, id, `${JSON.stringify(id)} must be replaced`);
        assert.match(echoed, REQUEST_ID);
        if (response.status >= 400) assert.equal(response.body.request_id, echoed);
        generated.add(echoed);
      }
    }
    assert.equal(generated.size, offered.length * 2, 'every generated id is new');
  });

  test('without X-Request-Id every response gets a fresh generated id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const ok = await api.get('/admin/plan-templates?limit=1');
      const problem = await api.get('/admin/facilities/0/plans');
      assert.match(String(ok.headers['x-request-id']), REQUEST_ID);
      assert.equal(problem.body.request_id, problem.headers['x-request-id']);
      ids.add(String(ok.headers['x-request-id']));
      ids.add(String(problem.headers['x-request-id']));
    }
    assert.equal(ids.size, 10);
  });

  test('a URL with a broken percent-encoding is 400 with an X-Request-Id', async () => {
    const response = await api.request(
      'PUT',
      '/admin/facilities/1/plans/1/entitlements/%ZZ',
      { value: 1 },
      {
        'x-request-id': 'bad-url-1',
      },
    );
    assertProblem(response, 400, 'validation_error');
    assert.equal(response.headers['x-request-id'], 'bad-url-1');
    assert.equal(response.body.request_id, 'bad-url-1');
  });

  // --- problem bodies and validation errors --------------------------------------

  test("requests Node's HTTP parser refuses are problem+json with an X-Request-Id: an unknown method 400, headers over 16 KB 431", async () => {
    const { port } = new URL(await api.app.listen({ port: 0, host: '127.0.0.1' }));
    /** Sends raw bytes and gives the status, the headers (lower-cased) and the parsed body of the answer. */
    const send = (request: string) =>
      new Promise<{ status: number; headers: Record<string, string>; body: Record<string, unknown> }>(
        (resolve) => {
          let answer = '';
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
          socket.setEncoding('utf8').on('data', (chunk: string) => {
            answer += chunk;
          });
          socket.on('close', () => {
            const [head, body] = answer.split('\r\n\r\n');
            const [statusLine, ...lines] = head.split('\r\n');
            const headers = Object.fromEntries(
              lines.map((line) => [
                line.slice(0, line.indexOf(':')).toLowerCase(),
                line.slice(line.indexOf(':') + 2),
              ]),
            );
            resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
          });
        },
      );
    const cases: [string, number, string][] = [
      ['FOO /admin/facilities/1/plans HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'validation_error'],
      [
        `GET /admin/facilities/1/plans HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
        431,
        'request_headers_too_large',
      ],
    ];
    for (const [request, status, code] of cases) {
      const answer = await send(request);
      assert.equal(answer.status, status);
      assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.match(answer.headers['x-request-id'], REQUEST_ID);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(Object.keys(answer.body).sort(), PROBLEM_FIELDS);
      assert.equal(answer.body.code, code);
      assert.equal(answer.body.status, status);
      assert.equal(answer.body.request_id, answer.headers['x-request-id']);
      assert.equal(answer.body.instance, '/admin/facilities/1/plans');
    }
  });

  test('problem bodies carry exactly type, title, status, detail, code, instance, request_id', async () => {
    const facility = api.newFacility();
    const cases: [TestResponse, number, string, string][] = [
      [
        await api.get(`/admin/facilities/${facility}/plans/424242`),
        404,
        'plan_not_found',
        `/admin/facilities/${facility}/plans/424242`,
      ],
      [
        await api.get(`/admin/facilities/${facility}/members/424242?x=1`),
        400,
        'validation_error',
        `/admin/facilities/${facility}/members/424242`,
      ],
      [await api.get('/nowhere?q=1'), 404, 'not_found', '/nowhere'],
      [
        await api.request('POST', '/admin/plan-templates?a=b'),
        405,
        'method_not_allowed',
        '/admin/plan-templates',
      ],
      [
        await api.post(`/admin/facilities/${facility}/plans?z=1`, '{'),
        400,
        'malformed_json',
        `/admin/facilities/${facility}/plans`,
      ],
    ];
    for (const [response, status, code, instance] of cases) {
      assertProblem(response, status, code);
      assertProblemShape(response, instance);
      assert.equal(response.body.type, `urn:facility-admin:problem:${code}`);
    }
  });

  test('a validation error lists every body problem with location body and a JSON pointer', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const response = await api.post(url, {
      price_amount: -1,
      currency: 'usd',
      billing_period: 'daily',
      duration_days: 0,
      is_active: 'yes',
      id: 3,
      colour: 'red',
    });
    const body = assertInvalid(
      response,
      '/name',
      '/price_amount',
      '/currency',
      '/billing_period',
      '/duration_days',
      '/is_active',
      '/id',
      '/colour',
    );
    assertProblemShape(response, url);
    for (const error of body.errors) {
      assert.deepEqual(Object.keys(error).sort(), ['field', 'location', 'message']);
      assert.equal(error.location, 'body');
      assert.equal(typeof error.message, 'string');
      assert.ok(error.message.length > 0);
    }
    assert.ok(body.errors.length >= 8);
    assert.deepEqual(await planNames(facility), []);
  });

  test('a validation error lists every query problem with location query and the parameter name', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/members`;
    const response = await api.get(`${url}?sport_id=x&status=gone&role=boss&plan_id=0&limit=0&cursor=bad`);
    const body = assertInvalid(response, 'sport_id', 'status', 'role', 'plan_id', 'limit');
    assertProblemShape(response, url);
    for (const error of body.errors) assert.equal(error.location, 'query', JSON.stringify(error));
  });

  test('an unknown query parameter is 400 naming it, on every operation, and writes nothing', async () => {
    const { facility, plan, member, ids } = await facilityWithPlanAndMember();
    for (const operation of OPERATIONS) {
      const { method, path } = split(operation);
      const body = VALID_BODIES[operation];
      const response = await api.request(method, `${fill(path, ids)}?include_inactve=true`, body);
      const problem = assertInvalid(response, 'include_inactve');
      assert.equal(problem.errors[0].location, 'query', operation);
    }
    assert.deepEqual(await planNames(facility), ['Plan']);
    assert.equal((await api.get(`/admin/facilities/${facility}/members/${member}`)).status, 200);
    assert.deepEqual((await api.get(`/admin/facilities/${facility}/plans/${plan}/entitlements`)).body, {
      entitlements: [],
    });
  });

  test('a path problem has location path', async () => {
    const response = await api.get('/admin/facilities/1/members/abc');
    const body = assertInvalid(response, 'member_id');
    assert.deepEqual(body.errors, [
      { location: 'path', field: 'member_id', message: body.errors[0].message },
    ]);
    assert.ok(body.detail.includes('member_id'), body.detail);
  });

  test('problems in path, query and body together are all listed', async () => {
    const response = await api.request('DELETE', '/admin/facilities/abc/plans/1?hard_delete=maybe');
    assertInvalid(response, 'facility_id', 'hard_delete');
    const patch = await api.patch('/admin/facilities/0/plans/1', { price_amount: -1 });
    assertInvalid(patch, 'facility_id', '/price_amount');
  });

  // --- path ids --------------------------------------------------------------------

  test('a path id that is not a positive integer up to 2^53-1 is 400 naming the parameter, on every endpoint', async () => {
    const bad = [
      'abc',
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '9007199254740992',
      '1'.repeat(300),
      '%20',
      '1%201',
      '+1',
      ' 1',
    ];
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    const good: Record<string, string> = {
      facility_id: String(facility),
      plan_id: String(plan),
      member_id: String(member),
    };
    let checked = 0;
    for (const operation of OPERATIONS) {
      const { method, path } = split(operation);
      const params = [...path.matchAll(/\{(\w+)_id\}/g)].map((m) => `${m[1]}_id`);
      for (const param of params) {
        for (const value of bad) {
          const url = fill(path, {
            ...good,
            [param]: value.startsWith(' ') ? encodeURIComponent(value) : value,
          });
          const body = VALID_BODIES[operation];
          const response = await api.request(method, url, body);
          const problem = assertInvalid(response, param);
          const error = problem.errors.find((e: { field: string }) => e.field === param);
          assert.equal(error.location, 'path', `${operation} ${param}=${value}`);
          checked++;
        }
      }
    }
    assert.equal(checked, bad.length * 26, 'facility_id on 16 operations, plan_id on 7, member_id on 3');
    // Nothing was created by the rejected writes.
    assert.deepEqual(await planNames(facility), ['Plan']);
    const members = await api.get(`/admin/facilities/${facility}/members`);
    assert.equal(members.body.members.length, 1);
  });

  test('the largest id, 2^53-1, is accepted', async () => {
    const policy = await api.get(`/admin/facilities/${MAX_SAFE}/policy`);
    assert.equal(policy.status, 200);
    assert.equal(policy.body.facility_id, Number(MAX_SAFE));
    const facility = api.newFacility();
    assertProblem(await api.get(`/admin/facilities/${facility}/plans/${MAX_SAFE}`), 404, 'plan_not_found');
    assertProblem(
      await api.get(`/admin/facilities/${facility}/members/${MAX_SAFE}`),
      404,
      'member_not_found',
    );
    assertProblem(
      await api.get(`/admin/facilities/${facility}/plans/${MAX_SAFE}/entitlements`),
      404,
      'plan_not_found',
    );
  });

  test('numeric query parameters follow the same rule', async () => {
    const facility = api.newFacility();
    for (const value of ['abc', '0', '-1', '1.5', '1e3', '0x10', '9007199254740992', '1'.repeat(300), '']) {
      assertInvalid(await api.get(`/admin/facilities/${facility}/plans?sport_id=${value}`), 'sport_id');
      assertInvalid(await api.get(`/admin/facilities/${facility}/members?plan_id=${value}`), 'plan_id');
      assertInvalid(await api.get(`/admin/facilities/${facility}/members?sport_id=${value}`), 'sport_id');
    }
    const ok = await api.get(`/admin/facilities/${facility}/plans?sport_id=${MAX_SAFE}`);
    assert.deepEqual(ok.body, { plans: [], next_cursor: null });
  });

  // --- boolean query parameters ---------------------------------------------------------

  test('include_inactive takes only true or false', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility, 'Archived');
    await newPlan(facility, 'Active');
    assert.equal((await api.delete(`/admin/facilities/${facility}/plans/${plan}`)).status, 204);
    const url = `/admin/facilities/${facility}/plans`;
    const names = async (query: string) =>
      (await api.get(`${url}?${query}`)).body.plans.map((p: { name: string }) => p.name);
    assert.deepEqual(await names('include_inactive=true'), ['Archived', 'Active']);
    assert.deepEqual(await names('include_inactive=false'), ['Active']);
    for (const value of ['TRUE', 'False', '1', '0', 'yes', 'no', 'on', '', 't', 'true%20', 'null']) {
      const body = assertInvalid(await api.get(`${url}?include_inactive=${value}`), 'include_inactive');
      assert.equal(body.errors[0].location, 'query');
    }
    assertInvalid(await api.get(`${url}?include_inactive=true&include_inactive=true`), 'include_inactive');
  });

  test('hard_delete takes only true or false, on plans and members', async () => {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    for (const resource of [`plans/${plan}`, `members/${member}`]) {
      const url = `/admin/facilities/${facility}/${resource}`;
      for (const value of ['TRUE', '1', 'yes', '', 'false%20', 'no']) {
        const body = assertInvalid(await api.delete(`${url}?hard_delete=${value}`), 'hard_delete');
        assert.equal(body.errors[0].location, 'query');
        const still = await api.get(url);
        assert.equal(still.status, 200);
        assert.equal(still.body.deleted_at, null, `${url} untouched after hard_delete=${value}`);
      }
      assert.equal((await api.delete(`${url}?hard_delete=false`)).status, 204);
      const soft = await api.get(url);
      assert.equal(soft.status, 200, 'hard_delete=false is a soft delete');
      assert.notEqual(soft.body.deleted_at, null);
    }
    const member2 = await newMember(facility);
    const url = `/admin/facilities/${facility}/members/${member2}`;
    assert.equal((await api.delete(`${url}?hard_delete=true`)).status, 204);
    assertProblem(await api.get(url), 404, 'member_not_found');
  });

  // --- authorization header, OpenAPI, docs ----------------------------------------------

  test('an Authorization header is accepted and ignored when authentication is off', async () => {
    const facility = api.newFacility();
    for (const authorization of ['Bearer not-a-real-key', 'Basic dXNlcjpwYXNz', 'garbage']) {
      const list = await api.get(`/admin/facilities/${facility}/plans`, { authorization });
      assert.equal(list.status, 200, list.text);
    }
    const created = await api.post(
      `/admin/facilities/${facility}/plans`,
      { name: 'With auth' },
      { authorization: 'Bearer whatever' },
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.location, `/admin/facilities/${facility}/plans/${created.body.id}`);
  });

  test('GET /openapi.json is an OpenAPI 3.1 document listing all 17 operations of the spec', async () => {
    const response = await api.get('/openapi.json');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const doc = response.body;
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(typeof doc.info.version, 'string');
    const methods = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];
    const operations: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { responses?: object }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!methods.includes(method)) continue;
        operations.push(`${method.toUpperCase()} ${path}`);
        assert.ok(operation.responses, `${method} ${path} has responses`);
      }
    }
    // The service may document more (health checks, extensions); the spec's 17 must all be there.
    const missing = OPERATIONS.filter((operation) => !operations.includes(operation));
    assert.deepEqual(missing, [], `documented: ${operations.join(', ')}`);
    assert.equal(new Set(operations).size, operations.length);
  });

  test('the OpenAPI document declares the JSON bodies and problem responses', async () => {
    const doc = (await api.get('/openapi.json')).body;
    for (const operation of OPERATIONS) {
      const { method, path } = split(operation);
      const op = doc.paths[path][method.toLowerCase()];
      assert.ok(op.responses['400'], `${operation} documents 400`);
      if (BODY_OPERATIONS.includes(operation)) {
        assert.ok(op.requestBody?.content?.['application/json'], `${operation} takes application/json`);
        assert.ok(op.responses['415'], `${operation} documents 415`);
      }
      if (method === 'DELETE') assert.ok(op.responses['204'], `${operation} documents 204`);
      if (method === 'POST') assert.ok(op.responses['201'], `${operation} documents 201`);
    }
  });

  test('GET /docs answers an HTML page', async () => {
    let response = await api.get('/docs');
    if (response.status >= 300 && response.status < 400) {
      const location = String(response.headers.location);
      response = await api.get(
        location.startsWith('/') ? location : `/docs/${location.replace(/^\.\//, '')}`,
      );
    }
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.text, /<html/i);
  });
});

describeEachDialect(
  'HTTP rules: a configured body limit',
  (api) => {
    test('BODY_LIMIT_BYTES sets the limit for 413', async () => {
      const facility = api.newFacility();
      const url = `/admin/facilities/${facility}/plans`;
      const small = await api.post(url, { name: 'Small', description: 'x'.repeat(500) });
      assert.equal(small.status, 201, small.text);
      const large = await api.post(url, { name: 'Large', description: 'x'.repeat(1500) });
      assertProblem(large, 413, 'payload_too_large');
      assertProblemShape(large, url);
      const names = (await api.get(url)).body.plans.map((p: { name: string }) => p.name);
      assert.deepEqual(names, ['Small']);
    });
  },
  { bodyLimitBytes: 1024 },
);

describeEachDialect('HTTP rules: messages a person can read', (api) => {
  test('a value that breaks a pattern is explained in words, not with the regular expression', async () => {
    const facility = api.newFacility();
    const response = await api.post(`/admin/facilities/${facility}/members`, {
      first_name: '   ',
      phone: 'call me',
    });
    const body = assertInvalid(response, '/first_name', '/phone');
    const messages = Object.fromEntries(
      body.errors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    assert.equal(messages['/phone'], 'may hold only digits, spaces and + - ( )');
    assert.equal(messages['/first_name'], 'must not be empty');
    assert.equal(body.errors.filter((e: { field: string }) => e.field === '/first_name').length, 1);
    const list = await api.get(`/admin/facilities/${facility}/members?status=gone`);
    assert.match(assertInvalid(list, 'status').errors[0].message, /^must be one or more of pending, active/);
  });
});
