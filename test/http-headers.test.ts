/**
 * Headers (contract: "General" and "Errors"; docs/security.md): the API's
 * security headers on every answer; X-Request-Id kept when valid, replaced
 * when not, generated when absent, and carried into problem bodies, even for
 * requests Node's HTTP parser refuses; an Authorization header ignored while
 * authentication is off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from './harness.js';
import { PROBLEM_FIELDS, REQUEST_ID, raw } from './http-rules.js';
import { sendRaw } from './raw-http.js';

describeEachDialect('HTTP rules: security headers, request ids and Authorization', (api) => {
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

  test("requests Node's HTTP parser refuses are problem+json with an X-Request-Id: an unknown method 400, headers over 16 KB 431", async () => {
    const { port } = new URL(await api.app.listen({ port: 0, host: '127.0.0.1' }));
    const send = (request: string) => sendRaw(Number(port), request);
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
      assertProblem(answer, status, code);
      assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.match(answer.headers['x-request-id'], REQUEST_ID);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(Object.keys(answer.body).sort(), PROBLEM_FIELDS);
      assert.equal(answer.body.request_id, answer.headers['x-request-id']);
      assert.equal(answer.body.instance, '/admin/facilities/1/plans');
    }
  });

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
});
