/**
 * Issue 37, point 1: long polls of the feed over real connections. Waiting
 * reads take at most half of MAX_CONNECTIONS and EVENTS_MAX_WAITERS_PER_KEY
 * per key, beyond which they are 429 and their connection is closed, so
 * plain requests always find a connection; a key revoked while its read
 * waits ends that read with 401 (PostgreSQL: the revocation arrives by
 * NOTIFY; SQLite: by data_version, from the `keys` command's process).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { runCli } from './cli-process.js';
import { eventually } from './eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from './harness.js';

const ADMIN = 'long-polls-admin-key';

interface Answer {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body?: any;
  /** The connection failed before an answer (the server refused it at MAX_CONNECTIONS). */
  error?: string;
}

/** A request on a connection of its own; `answer` is set once it ends. */
function send(port: number, path: string, secret: string, body?: unknown) {
  const state: { answer?: Answer; done: Promise<Answer> } = {} as never;
  state.done = new Promise<Answer>((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: body === undefined ? 'GET' : 'PATCH',
        agent: false,
        headers: {
          authorization: `Bearer ${secret}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, headers: response.headers, body: text && JSON.parse(text) }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ error: error.code ?? error.message }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(body === undefined ? undefined : JSON.stringify(body));
  }).then((answer) => {
    state.answer = answer;
    return answer;
  });
  return state;
}

function assertRefused(answer: Answer, detail: RegExp) {
  assert.equal(answer.status, 429, JSON.stringify(answer));
  assert.equal(answer.body.code, 'rate_limited');
  assert.match(answer.body.detail, detail);
  assert.equal(answer.headers?.['retry-after'], '1');
  assert.equal(answer.headers?.connection, 'close', 'a refused poller keeps no connection');
}

for (const dialect of DIALECTS) {
  describe(`long polls and connections [${dialect}]`, () => {
    let databaseUrl = '';
    let drop = async () => {};
    const apps: App[] = [];
    before(async () => {
      const database = await createTestDatabase(dialect);
      // The `keys` command revokes from another process: SQLite needs a file, removed afterwards.
      const file = `/tmp/fa-long-polls-${process.pid}-${Date.now()}.db`;
      databaseUrl = dialect === 'sqlite' ? `sqlite:${file}` : database.url;
      drop = async () => {
        for (const app of apps) await app.close();
        await database.drop();
        removeSqliteFiles(file);
      };
    });
    after(() => drop());

    let facility = 0;
    /** The app listening on a port, with settings from the environment's names, as an operator sets them. */
    async function serve(env: Record<string, string> = {}) {
      const config = { ...loadConfig(env), databaseUrl, authMode: 'api-key' as const, adminApiKey: ADMIN };
      const app = await buildApp(config, { logger: false });
      apps.push(app);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const keys = async (count: number) =>
        Promise.all(
          Array.from({ length: count }, async (_, i) => {
            const made = await createApiKey(app.db, {
              name: `poller ${i}`,
              role: 'viewer',
              facilityIds: 'all',
            });
            return { id: made.key.id, secret: made.secret };
          }),
        );
      facility += 1000;
      const events = `/admin/facilities/${facility}/events?wait=30`;
      return { app, port, keys, events, policy: `/admin/facilities/${facility}/policy` };
    }

    test('300 waiting polls from 30 keys: 128 wait, the rest are refused, and plain requests are answered meanwhile', async () => {
      const { port, keys, events, policy } = await serve();
      const pollers = await keys(30);
      const polls = Array.from({ length: 300 }, (_, i) => send(port, events, pollers[i % 30].secret));
      const ended = () => polls.filter((poll) => poll.answer !== undefined);
      await eventually(
        '172 of the 300 polls to be refused (the other 128 wait)',
        () => ended().length >= 172,
      );
      const refused = ended().filter((poll) => poll.answer?.status === 429);
      // Connections past MAX_CONNECTIONS (256) in the burst are closed by Node before any request is read.
      const reset = ended().filter((poll) => poll.answer?.error !== undefined);
      assert.equal(refused.length + reset.length, ended().length, JSON.stringify(ended()[0]?.answer));
      assert.ok(refused.length >= 128, `${refused.length} refused with 429`);
      for (const poll of refused) assertRefused(poll.answer as Answer, /at most 128/);

      for (let i = 0; i < 5; i++) {
        const plain = await send(port, policy, ADMIN).done;
        assert.equal(plain.status, 200, `plain request ${i}: ${JSON.stringify(plain)}`);
      }
      assert.equal(ended().length, 172, 'the 128 admitted polls still wait');
      const written = await send(port, policy, ADMIN, { booking_window_days: 21 }).done;
      assert.equal(written.status, 200);
      await eventually('the 128 waiting polls to answer with the event', () => ended().length === 300);
      const answered = polls.filter((poll) => poll.answer?.status === 200);
      assert.equal(answered.length, 128);
      for (const poll of answered)
        assert.deepEqual(
          poll.answer?.body.events.map((e: { type: string }) => e.type),
          ['policy.updated'],
        );
    });

    test('beyond EVENTS_MAX_WAITERS_PER_KEY a key is refused; beyond half of MAX_CONNECTIONS every key is; plain requests still find a connection', async () => {
      const { port, keys, events, policy } = await serve({
        MAX_CONNECTIONS: '8',
        EVENTS_MAX_WAITERS_PER_KEY: '2',
      });
      const [a, b, c] = await keys(3);
      const ofA = [1, 2, 3].map(() => send(port, events, a.secret));
      await eventually("one of key a's three polls to be refused", () => ofA.some((poll) => poll.answer));
      assertRefused(
        ofA.find((poll) => poll.answer)?.answer as Answer,
        /already has 2 reads of the feed waiting \(at most 2\)/,
      );
      const ofB = [1, 2, 3].map(() => send(port, events, b.secret));
      await eventually("one of key b's three polls to be refused", () => ofB.some((poll) => poll.answer));
      assertRefused(ofB.find((poll) => poll.answer)?.answer as Answer, /at most 2/);
      // Four wait now: half of the 8 connections.
      assertRefused(
        await send(port, events, c.secret).done,
        /Too many reads of the feed are waiting in this process \(at most 4\)/,
      );
      for (let i = 0; i < 3; i++) assert.equal((await send(port, policy, ADMIN).done).status, 200);
      assert.equal([...ofA, ...ofB].filter((poll) => poll.answer).length, 2, 'four polls still wait');
    });

    test('a key revoked with the keys command ends its waiting polls with 401; other keys keep waiting and get the event', async () => {
      const { port, keys, events, policy } = await serve({ EVENTS_MAX_WAITERS_PER_KEY: '1' });
      const [quiet, busy, kept] = await keys(3);
      const polls = [quiet, busy, kept].map((key) => send(port, events, key.secret));
      // With one wait per key, a second poll of each is refused: the proof that the first one waits.
      for (const key of [quiet, busy, kept])
        assertRefused(await send(port, events, key.secret).done, /at most 1/);

      const revoke = async (id: number) => {
        const result = await runCli(['keys', 'revoke', String(id)], { env: { DATABASE_URL: databaseUrl } });
        assert.equal(result.code, 0, result.stderr);
      };
      // Nothing is written: the revocation alone ends the wait.
      await revoke(quiet.id);
      const ended = await polls[0].done;
      assert.equal(ended.status, 401, JSON.stringify(ended));
      assert.equal(ended.body.code, 'unauthenticated');
      assert.equal(ended.headers?.['www-authenticate'], 'Bearer realm="facility-admin"');

      // An event written after a revocation never reaches a poll of the revoked key.
      await revoke(busy.id);
      assert.equal((await send(port, policy, ADMIN, { booking_window_days: 9 }).done).status, 200);
      const revoked = await polls[1].done;
      assert.equal(revoked.status, 401, JSON.stringify(revoked));
      const delivered = await polls[2].done;
      assert.equal(delivered.status, 200);
      assert.deepEqual(
        delivered.body.events.map(
          (e: { data: { booking_window_days: number } }) => e.data.booking_window_days,
        ),
        [9],
      );
      assert.equal((await send(port, policy, busy.secret).done).status, 401);
    });
  });
}
