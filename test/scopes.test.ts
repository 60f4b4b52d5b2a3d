/**
 * Scopes: the API's policies (never cached, nothing to run) hold for the API
 * and its machine endpoints; the docs page sets its own; the headers every
 * response needs are on every response.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect, type TestResponse } from './harness.js';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function assertEveryResponseHeaders(answer: TestResponse) {
  assert.match(String(answer.headers['strict-transport-security']), /max-age=/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.equal(answer.headers['x-frame-options'], 'DENY');
  assert.ok(answer.headers['x-request-id']);
}

describeEachDialect('scopes', (api) => {
  test('API answers, the OpenAPI document, health and metrics are never cached and cannot run as a page', async () => {
    const facility = api.newFacility();
    for (const url of [
      `/admin/facilities/${facility}/plans`,
      '/admin/plan-templates',
      '/openapi.json',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      const answer = await api.get(url);
      assert.equal(answer.status, 200, `${url}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.headers['cache-control'], 'no-store', url);
      assert.equal(answer.headers['content-security-policy'], API_CSP, url);
      assertEveryResponseHeaders(answer);
    }
  });

  test("the docs page sets its own policy: a CSP that lets it run its own scripts, and the API's no-store does not apply", async () => {
    const page = await api.get('/docs/');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.notEqual(page.headers['cache-control'], 'no-store');
    assertEveryResponseHeaders(page);
  });

  test('a problem is an API answer wherever it comes from: an unknown path, a docs file that is not there', async () => {
    for (const url of ['/nothing/here', '/docs/static/no-such-file.js']) {
      const answer = await api.get(url);
      assert.equal(answer.status, 404, url);
      assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
      assert.equal(answer.headers['cache-control'], 'no-store', url);
      assertEveryResponseHeaders(answer);
    }
  });
});
