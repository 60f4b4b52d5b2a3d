/**
 * The service describes itself (contract preamble: the OpenAPI document says
 * what the contract says): GET /openapi.json is an OpenAPI 3.1 document with
 * the spec's 17 operations, and every operation's bodies and problem responses; GET /docs is
 * an HTML page.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from './harness.js';
import { nameOf, OPERATIONS } from './http-rules.js';

/** The 17 operations of the spec (the contract's source), as the document names them. */
const SPEC_OPERATIONS = [
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

describeEachDialect('HTTP rules: the OpenAPI document and the docs page', (api) => {
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
    const missing = SPEC_OPERATIONS.filter((operation) => !operations.includes(operation));
    assert.deepEqual(missing, [], `documented: ${operations.join(', ')}`);
    assert.equal(new Set(operations).size, operations.length);
  });

  test('every operation declares its bodies and the problems every request may meet', async () => {
    for (const operation of OPERATIONS.filter((o) => o.secured)) {
      const documented = operation.responses;
      for (const status of ['400', '401', '403', '429'])
        assert.ok(documented.includes(status), `${nameOf(operation)} documents ${status}`);
      if (operation.bodyTypes.length > 0) {
        assert.ok(documented.includes('413'), `${nameOf(operation)} documents 413`);
        assert.ok(documented.includes('415'), `${nameOf(operation)} documents 415`);
      }
      if (operation.method === 'DELETE')
        assert.ok(documented.includes('204'), `${nameOf(operation)} documents 204`);
      if (operation.operationId.startsWith('create'))
        assert.ok(documented.includes('201'), `${nameOf(operation)} documents 201`);
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
