/**
 * Issue 25, "exact answers": the URLs the service hands out (a create's
 * Location, a problem's `instance` and detail) are made from the route, the
 * canonical ids and BASE_PATH, never from the request target as sent. An
 * absolute-form target is sent through a real socket, as a client or a
 * proxy would; inject normalises the URL.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { before, test } from 'node:test';
import { type Api, describeEachDialect } from './harness.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
}

/** Sends `target` exactly as given as the request target. */
function send(
  port: number,
  method: string,
  target: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) }),
        );
      },
    );
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** No header of the answer names the foreign host or the id as it was spelled. */
function assertNoEcho(response: RawResponse, ...spellings: string[]) {
  for (const [name, value] of Object.entries(response.headers)) {
    for (const spelling of spellings) {
      assert.ok(!String(value).includes(spelling), `${name}: ${value} repeats ${spelling}`);
    }
  }
}

const CREATES = [
  ['plans', () => ({ name: `Plan ${Math.random()}` })],
  ['members', () => ({ first_name: 'Ann' })],
] as const;

function locationSuite(base: string) {
  return (api: Api) => {
    let port = 0;
    before(async () => {
      port = Number(new URL(await api.app.listen({ port: 0, host: '127.0.0.1' })).port);
    });

    /** Creates through `target` and checks Location against the canonical collection path. */
    async function assertCanonicalLocation(
      target: string,
      facility: number,
      collection: string,
      body: unknown,
    ) {
      const created = await send(port, 'POST', target, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.facility_id, facility);
      const canonical = `${base}/admin/facilities/${facility}/${collection}/${created.body.id}`;
      assert.equal(created.headers.location, canonical);
      const read = await api.get(canonical);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, created.body);
      return created;
    }

    test('an absolute-form request target: the Location has no host, only the path of the new resource', async () => {
      const facility = api.newFacility();
      for (const [collection, body] of CREATES) {
        const target = `http://evil.example${base}/admin/facilities/${facility}/${collection}`;
        const created = await assertCanonicalLocation(target, facility, collection, body());
        assertNoEcho(created, 'evil.example', 'http:');
      }
    });

    test('a facility id with leading zeros: the Location names it as the number it is', async () => {
      const facility = api.newFacility();
      for (const [collection, body] of CREATES) {
        const target = `${base}/admin/facilities/000${facility}/${collection}/`;
        const created = await assertCanonicalLocation(target, facility, collection, body());
        assertNoEcho(created, `000${facility}`, '//');
      }
    });

    test('a percent-encoded facility id: the Location names it in plain digits', async () => {
      const facility = api.newFacility();
      const encoded = [...String(facility)].map((digit) => `%3${digit}`).join('');
      for (const [collection, body] of CREATES) {
        const target = `${base}/admin/facilities/${encoded}/${collection}`;
        const created = await assertCanonicalLocation(target, facility, collection, body());
        assertNoEcho(created, '%');
      }
    });

    test('a retry spelled differently (absolute form, leading zeros) replays the first create', async () => {
      const facility = api.newFacility();
      const headers = { 'idempotency-key': `spelling-${Math.random()}` };
      const body = { name: 'Gold' };
      const first = await send(port, 'POST', `${base}/admin/facilities/${facility}/plans`, body, headers);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      for (const target of [
        `http://evil.example${base}/admin/facilities/${facility}/plans`,
        `${base}/admin/facilities/0${facility}/plans`,
      ]) {
        const retry = await send(port, 'POST', target, body, headers);
        assert.equal(retry.status, 201, JSON.stringify(retry.body));
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.deepEqual(retry.body, first.body);
        assert.equal(retry.headers.location, first.headers.location);
      }
    });

    test("a problem's instance and detail carry the path, never the foreign host", async () => {
      const invalid = await send(port, 'GET', `http://evil.example${base}/admin/facilities/abc/plans`);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.instance, `${base}/admin/facilities/abc/plans`);
      const unknown = await send(port, 'GET', `http://evil.example${base}/nowhere?x=1`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.instance, `${base}/nowhere`);
      assert.equal(unknown.body.detail, `No resource at ${base}/nowhere`);
      const otherMethod = await send(port, 'DELETE', `http://evil.example${base}/admin/facilities/1/plans`);
      assert.equal(otherMethod.status, 405);
      assert.equal(otherMethod.headers.allow, 'GET, HEAD, POST');
      for (const response of [invalid, unknown, otherMethod]) {
        assertNoEcho(response, 'evil.example');
        assert.ok(!JSON.stringify(response.body).includes('evil.example'), JSON.stringify(response.body));
      }
    });
  };
}

describeEachDialect('Location without BASE_PATH', locationSuite(''));
describeEachDialect('Location under BASE_PATH', locationSuite('/api/v1'), { basePath: '/api/v1' });
