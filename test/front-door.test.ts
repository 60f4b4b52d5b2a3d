/**
 * What someone who points a browser at the service meets: the root leads to
 * the documentation, which carries the product's name and version, and the
 * licence the project is published under.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { describeEachDialect } from './harness.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** The logo @fastify/swagger-ui puts in the page's script when given none. */
const FRAMEWORK_LOGO = readFileSync(
  new URL('../node_modules/@fastify/swagger-ui/static/logo.svg', import.meta.url),
).toString('base64');

describeEachDialect('the front door', (api) => {
  test('GET / redirects to /docs', async () => {
    const response = await api.get('/');
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/docs');
  });

  test('the docs page is titled "facility-admin API" and shows no framework logo', async () => {
    const page = await api.get('/docs');
    assert.equal(page.status, 200);
    assert.match(page.text, /<title>facility-admin API<\/title>/);
    assert.match(page.text, /href="[^"]*\/theme\/favicon\.svg"/);
    assert.doesNotMatch(page.text, /favicon-32x32\.png/);
    const script = await api.get('/docs/static/swagger-initializer.js');
    assert.equal(script.status, 200);
    // The base layout has no top bar, where Swagger UI shows its logo.
    assert.match(script.text, /"layout":"BaseLayout"/);
    assert.equal(script.text.includes(FRAMEWORK_LOGO), false);
  });

  test('the OpenAPI document carries the name, the package version and the MIT licence', async () => {
    const { info } = (await api.get('/openapi.json')).body;
    assert.deepEqual([info.title, info.version], ['facility-admin API', manifest.version]);
    assert.deepEqual(info.license, { name: 'MIT', identifier: 'MIT' });
  });
});

describeEachDialect(
  'the front door under BASE_PATH',
  (api) => {
    test('GET /api/v1 and /api/v1/ redirect to /api/v1/docs; / is not served', async () => {
      for (const url of ['/api/v1', '/api/v1/']) {
        const response = await api.get(url);
        assert.deepEqual([response.status, response.headers.location], [302, '/api/v1/docs'], url);
      }
      assert.equal((await api.get('/')).status, 404);
    });
  },
  { basePath: '/api/v1' },
);

test('the project is MIT licensed: package.json and LICENSE say so', () => {
  assert.equal(manifest.license, 'MIT');
  const licence = readFileSync(new URL('../LICENSE', import.meta.url), 'utf8');
  assert.match(licence, /^MIT License\n\nCopyright \(c\) 2026 facility-admin contributors\n/);
});
