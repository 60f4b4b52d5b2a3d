/**
 * Issue 37: what a delivery's `last_error` says, over real sockets, and the
 * address guard's IPv6 forms that carry an IPv4 address. The messages are a
 * closed set: a closed port, a silent one and one where something else
 * listens read the same, and no message carries a code, an address or a path.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { isPublicAddress } from './safe-address.js';
import { DELIVERY_ERRORS, postWebhook, type SendSettings } from './webhook-sender.js';

/** A self-signed certificate for 127.0.0.1 (EC P-256, valid to 2126): no client trusts it. */
const SELF_SIGNED = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgKVKsfg26Fav80q38
VTObUUiz9F1frs9GWI+WrA2vspChRANCAARch4Sk9x8EsCSOv7oC5i5EAKdQs3fs
I/zv73Z5QILYZfvYtZ3i9Qd9plKrjk+KlbG/Kxg1w4OIeotQKd2kiGV0
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIURhOa/fwfrHhoQJBvMP2C7xxO5w0wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzE4MDM0NVoYDzIxMjYxMTAz
MTgwMzQ1WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARch4Sk9x8EsCSOv7oC5i5EAKdQs3fsI/zv73Z5QILYZfvYtZ3i9Qd9
plKrjk+KlbG/Kxg1w4OIeotQKd2kiGV0o28wbTAdBgNVHQ4EFgQUiKWzgc0f2EuK
UOEi1c+XcaTAo/UwHwYDVR0jBBgwFoAUiKWzgc0f2EuKUOEi1c+XcaTAo/UwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSAAwRQIhALisq13f9OtJgXbsq9fFQjFe5/448dXLewJ1lIeLyASeAiB/
sWJQwSwL81cMeQ9HBZfzu4s8LIL8xg+ezuyhTwh7dA==
-----END CERTIFICATE-----`,
};

/** Short, so that the cases that wait for the time to run out end soon; loopback answers well within it. */
const SETTINGS: SendSettings = { timeoutMs: 500, maxResponseBytes: 4096, allowPrivate: true };
const CLOSED_SET =
  /^(not a public address|could not connect|certificate not accepted|timed out|no valid answer|answered \d{3}(; redirects are not followed)?)$/;

const servers: Server[] = [];
const sockets = new Set<Socket>();
after(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of servers) server.close();
});

async function listening(server: Server): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that nothing listens on: one that was listened on a moment ago. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const silentPort = () => listening(createTcpServer() as unknown as Server);
const sshLikePort = () =>
  listening(createTcpServer((socket) => socket.write('SSH-2.0-OpenSSH_9.6\r\n')) as unknown as Server);
const answering = (status: number, headers: Record<string, string> = {}) =>
  listening(createHttpServer((_request, response) => response.writeHead(status, headers).end()));

const send = async (url: string, settings: SendSettings = SETTINGS) => {
  const result = await postWebhook(url, {}, '{}', settings);
  if (result.error !== undefined) assert.match(result.error, CLOSED_SET, `${url}: ${result.error}`);
  return result;
};

describe('last_error: a closed set of plain messages', () => {
  test('https: a closed port, a silent one and one where something else listens all read "could not connect"', async () => {
    for (const port of [await closedPort(), await silentPort(), await sshLikePort()]) {
      assert.deepEqual(await send(`https://127.0.0.1:${port}/in`), {
        error: DELIVERY_ERRORS.couldNotConnect,
      });
    }
  });

  test('https: a certificate the service does not trust is "certificate not accepted"', async () => {
    const port = await listening(
      createHttpsServer(SELF_SIGNED, (_request, response) => response.writeHead(204).end()),
    );
    assert.deepEqual(await send(`https://127.0.0.1:${port}/in`), { error: DELIVERY_ERRORS.certificate });
  });

  test('http: refused is "could not connect"; connected with no answer in time is "timed out"; not HTTP is "no valid answer"', async () => {
    assert.deepEqual(await send(`http://127.0.0.1:${await closedPort()}/in`), {
      error: DELIVERY_ERRORS.couldNotConnect,
    });
    assert.deepEqual(await send(`http://127.0.0.1:${await silentPort()}/in`), {
      error: DELIVERY_ERRORS.timedOut,
    });
    assert.deepEqual(await send(`http://127.0.0.1:${await sshLikePort()}/in`), {
      error: DELIVERY_ERRORS.noValidAnswer,
    });
  });

  test('a name that does not resolve is "could not connect"', async () => {
    assert.deepEqual(await send('https://no-such-receiver.invalid/in'), {
      error: DELIVERY_ERRORS.couldNotConnect,
    });
  });

  test('an answer is "answered <status>"; a redirect says it is not followed; a 2xx is no error', async () => {
    assert.deepEqual(await send(`http://127.0.0.1:${await answering(500)}/in`), {
      status: 500,
      error: 'answered 500',
    });
    assert.deepEqual(await send(`http://127.0.0.1:${await answering(301, { location: '/x' })}/in`), {
      status: 301,
      error: 'answered 301; redirects are not followed',
    });
    assert.deepEqual(await send(`http://127.0.0.1:${await answering(204)}/in`), { status: 204 });
  });
});

/** IPv6 forms that carry a private, loopback or link-local IPv4 address, as a URL writes them. */
const CARRYING_PRIVATE_IPV4 = [
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:10.1.2.3',
  '::127.0.0.1', // IPv4-compatible (deprecated): the URL parser writes it ::7f00:1
  '::169.254.169.254',
  '::7f00:1',
  '::ffff:0:127.0.0.1', // IPv4-translated (SIIT)
  '64:ff9b::127.0.0.1', // NAT64, well-known prefix
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::192.168.0.1',
  '64:ff9b:1::a00:1', // NAT64, local-use prefix
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2002:a01:203::1', // 6to4 of 10.1.2.3
  '2001:0:7f00:1:0:0:f5ff:fffe', // Teredo: server 127.0.0.1, client 10.0.0.1 (obfuscated)
];

describe('the address guard and IPv6 forms that carry an IPv4 address', () => {
  test('every form that carries a private, loopback or link-local IPv4 address is refused', () => {
    for (const address of CARRYING_PRIVATE_IPV4) assert.equal(isPublicAddress(address), false, address);
  });

  test('a webhook URL written with such an address is refused before any connection', async () => {
    for (const address of CARRYING_PRIVATE_IPV4) {
      const result = await send(`https://[${address}]/in`, { ...SETTINGS, allowPrivate: false });
      assert.deepEqual(result, { error: DELIVERY_ERRORS.notPublic }, address);
    }
  });

  test('IPv4-mapped and well-known NAT64 addresses of a public IPv4 address are public; the deprecated and relayed forms are refused whatever they carry', () => {
    for (const address of ['::ffff:93.184.216.34', '64:ff9b::93.184.216.34', '2606:2800:220:1::1'])
      assert.equal(isPublicAddress(address), true, address);
    for (const address of [
      '::93.184.216.34',
      '::ffff:0:93.184.216.34',
      '2002:5db8:d822::1',
      '2001:0:5db8:d822::1',
    ])
      assert.equal(isPublicAddress(address), false, address);
  });
});
