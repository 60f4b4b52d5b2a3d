/**
 * How the service serves the web console (packages/console, built by npm run
 * build): at /console/, with its own strict CSP, the page revalidated and the
 * hashed assets cached for a year; CONSOLE=off serves nothing. The console's
 * behaviour is tested in a browser in packages/console/test/.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIR } from '../src/http/pipeline/console.js';
import { describeEachDialect } from './harness.js';

if (!existsSync(`${CONSOLE_DIR}index.html`)) {
  throw new Error('packages/console/dist is missing: run "npm run build" (npm test builds it first)');
}
const assets = readdirSync(`${CONSOLE_DIR}assets`);
const script = assets.find((name) => name.endsWith('.js'));

describeEachDialect('console: served at /console/', (api) => {
  test('serves the page with a CSP that allows this origin only and nothing inline', async () => {
    const page = await api.get('/console/');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    // Nothing inline for the CSP to refuse, no address of another host.
    assert.doesNotMatch(page.text, /<script>|<script [^>]*>\s*[^<\s]|style=|https?:\/\//);
  });

  test('redirects /console to /console/, whose relative asset URLs need the slash', async () => {
    const response = await api.get('/console');
    assert.equal(response.status, 301);
    assert.equal(response.headers.location, '/console/');
  });

  test('caches the hashed assets for a year, and answers 404 problem+json for a file it does not have', async () => {
    const asset = await api.get(`/console/assets/${script}`);
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const missing = await api.get('/console/assets/nothing-here.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
  });

  test('keeps the API scope as it was: no-store and a CSP that runs nothing', async () => {
    const response = await api.get('/admin/facilities/1/plans');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  });
});

describeEachDialect(
  'console: CONSOLE=off',
  (api) => {
    test('serves no console', async () => {
      assert.equal((await api.get('/console/')).status, 404);
      assert.equal((await api.get(`/console/assets/${script}`)).status, 404);
    });
  },
  { console: false },
);

describeEachDialect(
  'console: under BASE_PATH',
  (api) => {
    test('is served at <BASE_PATH>/console/', async () => {
      assert.equal((await api.get('/api/v1/console/')).status, 200);
      assert.equal((await api.get('/console/')).status, 404);
    });
  },
  { basePath: '/api/v1' },
);

test('the console ships less than 100 KB of gzipped JavaScript', () => {
  const bytes = assets
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipSync(readFileSync(`${CONSOLE_DIR}assets/${name}`)).length, 0);
  assert.ok(bytes < 100 * 1024, `${bytes} bytes gzipped`);
});
