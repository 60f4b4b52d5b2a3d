/**
 * A request that does not arrive in time (Node's headersTimeout and
 * requestTimeout) is answered 408 request_timeout as problem+json with a
 * request id, and its connection closed. The server's timeouts, and how often
 * it checks them, are set short on this test's own app before it listens.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { appWith } from './app-with.js';
import { assertProblem } from './harness.js';
import { PROBLEM_FIELDS, REQUEST_ID } from './http-rules.js';
import { sendRaw } from './raw-http.js';

test('headers that never end are 408 request_timeout as problem+json, and the connection is closed', async () => {
  const { app } = await appWith({});
  const server = app.server as typeof app.server & { connectionsCheckingInterval: number };
  server.headersTimeout = 300;
  server.requestTimeout = 300;
  // Read when the server starts listening: how often it looks for requests past their time.
  server.connectionsCheckingInterval = 50;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  // The request line and a header, and never the blank line that ends the headers.
  const answer = await sendRaw(port, 'GET /admin/facilities/1/plans HTTP/1.1\r\nHost: x\r\n');
  assertProblem(answer, 408, 'request_timeout');
  assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(answer.headers.connection, 'close');
  assert.match(answer.headers['x-request-id'], REQUEST_ID);
  assert.deepEqual(Object.keys(answer.body).sort(), PROBLEM_FIELDS);
  assert.equal(answer.body.request_id, answer.headers['x-request-id']);
  // Node hands over no bytes of a request that timed out: its target is unknown, and the instance is /.
  assert.equal(answer.body.instance, '/');
});
