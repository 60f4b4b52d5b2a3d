/**
 * Exports streaming at once are bounded per client (API key, or address
 * without authentication) and per process. Two exports are held part-way
 * (the members table kept busy), so that others arrive while they stream.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { eventually } from '../../../../test/eventually.js';
import { type Api, assertProblem, describeEachDialect } from '../../../../test/harness.js';

/** An export over a socket from `address`: resolves once its answer has begun (it holds its place then). */
async function exportFrom(port: number, facility: number, address: string): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port, localAddress: address });
  socket.on('error', () => {});
  socket.write(`GET /admin/facilities/${facility}/members/export.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const [first] = (await once(socket, 'data')) as [Buffer];
  assert.match(first.toString('latin1'), /^HTTP\/1\.1 200 /);
  return socket;
}

/** Keeps the members table from being read until `release` is called: exports wait at their first page. */
async function holdMembers(api: Api): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  const holding = api.app.db.transaction().execute(async (trx) => {
    // SQLite: this transaction holds the process's one connection. PostgreSQL: the table's lock.
    if (api.dialect === 'postgres') await sql`lock table members in access exclusive mode`.execute(trx);
    held = true;
    await gate;
  });
  await eventually('the members table to be held', () => held);
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}

describeEachDialect(
  'member exports: how many stream at once',
  (api) => {
    let port = 0;
    before(async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      port = (api.app.server.address() as { port: number }).port;
    });
    const exportVia = (facility: number, remoteAddress: string) =>
      api.app.inject({
        method: 'GET',
        url: `/admin/facilities/${facility}/members/export.csv`,
        remoteAddress,
      });

    test('EXPORTS_PER_KEY is 429 rate_limited, EXPORT_CONCURRENCY 503, each with Retry-After, before any work', async () => {
      const facility = api.newFacility();
      await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann' });
      const members = await holdMembers(api);
      const first = await exportFrom(port, facility, '127.0.0.1');
      const sameClient = await exportVia(facility, '127.0.0.1');
      const perKey = assertProblem(
        {
          status: sameClient.statusCode,
          headers: sameClient.headers,
          body: sameClient.json(),
          text: sameClient.body,
        },
        429,
        'rate_limited',
      );
      assert.match(perKey.detail, /EXPORTS_PER_KEY/);
      assert.equal(sameClient.headers['retry-after'], '5');

      const second = await exportFrom(port, facility, '127.0.0.2');
      const full = await exportVia(facility, '10.0.0.3');
      assertProblem(
        { status: full.statusCode, headers: full.headers, body: full.json(), text: full.body },
        503,
        'service_unavailable',
      );
      assert.equal(full.headers['retry-after'], '5');

      await members.release();
      for (const socket of [first, second]) {
        socket.resume();
        socket.destroy();
      }
      await eventually(
        'an export to be served once the others ended',
        async () => (await exportVia(facility, '10.0.0.3')).statusCode === 200,
      );
      const after = await exportVia(facility, '127.0.0.1');
      assert.equal(after.statusCode, 200);
      assert.match(after.body, /,Ann,/);
    });
  },
  { memberExport: { concurrency: 2, perKey: 1 } },
);
