/**
 * The service describes itself (contract preamble: the OpenAPI document says
 * what the contract says): GET /openapi.json is an OpenAPI 3.1 document with
 * the spec's 17 operations, their bodies and problem responses; GET /docs is
 * an HTML page.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDialect } from './harness.js';
import { BODY_OPERATIONS, OPERATIONS, split } from './http-rules.js';

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
