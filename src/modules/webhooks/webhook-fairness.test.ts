/**
 * Webhook delivery shared fairly: each endpoint is served one message at a
 * time from its own cursor over the journal, so a facility whose receivers
 * never answer, or that has a large backlog, delays no other facility; an
 * endpoint whose attempts keep failing stops taking new events until a retry
 * succeeds; pings are limited; an endpoint the service disables says so in
 * the feed. A write itself writes no delivery rows.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { eventually } from '../../../test/eventually.js';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { type Receiver, startReceiver, startTestWorker, WEBHOOK_TEST_CONFIG } from './webhook.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

/** A receiver that takes requests and never answers; it counts them and those open now. */
async function startSilentReceiver() {
  const state = { requests: 0, open: 0, mostOpen: 0 };
  const server = http.createServer((request) => {
    state.requests += 1;
    state.open += 1;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    request.socket.on('close', () => {
      state.open -= 1;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/silent`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeEachDialect(
  'webhook deliveries: fairness across facilities and endpoints',
  (api) => {
    let receiver: Receiver;
    let silent: Awaited<ReturnType<typeof startSilentReceiver>>;
    before(async () => {
      receiver = await startReceiver();
      silent = await startSilentReceiver();
    });
    after(async () => {
      await receiver.close();
      await silent.close();
    });
    const received = (facility: number) =>
      receiver.received.filter((r) => JSON.parse(r.body).facility_id === facility);
    const silentEndpoints: [number, number][] = [];
    const addEndpoint = async (facility: number, url: string) => {
      const created = await api.post(`${f(facility)}/webhook-endpoints`, { url });
      assert.equal(created.status, 201, created.text);
      return created.body.id as number;
    };

    test("a facility whose receivers never answer delays no other facility's delivery", async () => {
      const worker = startTestWorker(api.app, { concurrency: 8, timeoutMs: 2000 });
      try {
        const busy = api.newFacility();
        for (let i = 0; i < 8; i++) silentEndpoints.push([busy, await addEndpoint(busy, silent.url)]);
        for (let i = 0; i < 10; i++) await api.post(`${f(busy)}/plans`, { name: `Plan ${i}` });
        await eventually('the silent receiver holding a request', () => silent.state.open > 0);
        const quiet = api.newFacility();
        await addEndpoint(quiet, receiver.url);
        const requestsBefore = silent.state.requests;
        await api.patch(`${f(quiet)}/policy`, { currency: 'EUR' });
        await eventually("the quiet facility's delivery", () => received(quiet).length === 1);
        // Eight endpoints each waiting on the silent receiver: at most half of the worker's room is theirs.
        assert.ok(silent.state.mostOpen <= 4, `at most 4 at once, saw ${silent.state.mostOpen}`);
        // It went ahead of the busy facility's backlog (80 messages), not after it.
        assert.ok(silent.state.requests - requestsBefore < 16, `${silent.state.requests} silent requests`);
      } finally {
        await worker.stop();
        // Their backlog would cost the later tests' workers their time.
        for (const [facility, id] of silentEndpoints)
          await api.patch(`${f(facility)}/webhook-endpoints/${id}`, { enabled: false });
      }
    });

    test('an endpoint whose attempts keep failing takes no new events until a retry succeeds', async () => {
      // Retries wait an hour: only the five first attempts happen unless a retry is asked for.
      const worker = startTestWorker(api.app, { retryDelaysMs: [3_600_000] });
      try {
        const facility = api.newFacility();
        const id = await addEndpoint(facility, receiver.url);
        receiver.answers.push(500, 500, 500, 500, 500);
        // Eight resources: a failed message holds back only later events of its own resource.
        for (let i = 1; i <= 8; i++) await api.post(`${f(facility)}/plans`, { name: `Plan ${i}` });
        const deliveries = async () =>
          (await api.get(`${f(facility)}/webhook-endpoints/${id}/deliveries`)).body.deliveries as {
            id: number;
            status: string;
            attempts: number;
          }[];
        await eventually('five failed attempts', async () => (await deliveries()).length === 5);
        // A positive signal that the worker went round again: another facility's delivery arrives.
        const other = api.newFacility();
        await addEndpoint(other, receiver.url);
        await api.patch(`${f(other)}/policy`, { currency: 'EUR' });
        await eventually("the other facility's delivery", () => received(other).length === 1);
        const held = await deliveries();
        assert.deepEqual(
          held.map((d) => [d.status, d.attempts]),
          Array.from({ length: 5 }, () => ['pending', 1]),
          'five failures in a row, and the three later events not taken',
        );
        const retried = await api.post(
          `${f(facility)}/webhook-endpoints/${id}/deliveries/${held[0].id}/retry`,
        );
        assert.equal(retried.status, 202);
        // The retry succeeds, and new events flow again; the other four retries wait for their hour.
        await eventually('the retry and the three later events', () => received(facility).length === 4);
        assert.deepEqual(
          received(facility).map((r) => JSON.parse(r.body).data.name),
          ['Plan 1', 'Plan 6', 'Plan 7', 'Plan 8'],
        );
      } finally {
        await worker.stop();
      }
    });

    test('one test ping waits at a time; a second is 429 with Retry-After', async () => {
      const facility = api.newFacility();
      const id = await addEndpoint(facility, silent.url);
      assert.equal((await api.post(`${f(facility)}/webhook-endpoints/${id}/test`)).status, 202);
      silentEndpoints.push([facility, id]);
      const second = await api.post(`${f(facility)}/webhook-endpoints/${id}/test`);
      assertProblem(second, 429, 'rate_limited');
      assert.equal(second.headers['retry-after'], '5');
      await api.patch(`${f(facility)}/webhook-endpoints/${id}`, { enabled: false });
    });

    test('a write writes no delivery: the worker reads the journal', async () => {
      const facility = api.newFacility();
      const id = await addEndpoint(facility, receiver.url);
      await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
      const rows = await api.app.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', id)
        .execute();
      assert.deepEqual(rows, []);
      await api.app.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    });

    test('an endpoint the service disables is an event in the feed and an audit entry by the system', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const id = await addEndpoint(facility, receiver.url);
        receiver.answers.push(410);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        await eventually(
          'the endpoint disabled',
          async () => (await api.get(`${f(facility)}/webhook-endpoints/${id}`)).body.enabled === false,
        );
        const { events } = (await api.get(`${f(facility)}/events?types=webhook_endpoint.disabled`)).body;
        assert.equal(events.length, 1);
        assert.equal(events[0].data.id, id);
        assert.match(events[0].data.disabled_reason, /410 Gone/);
        assert.equal(events[0].data.secret, undefined);
        const audit = (await api.get(`${f(facility)}/audit-events?resource_type=webhook_endpoint`)).body;
        const disabled = audit.audit_events.find(
          (entry: { action: string; changes: Record<string, unknown> }) =>
            entry.action === 'update' && 'enabled' in entry.changes,
        );
        assert.equal(disabled.api_key_name, 'system');
        assert.deepEqual(disabled.changes.enabled, { before: true, after: false });
      } finally {
        await worker.stop();
      }
    });
  },
  WEBHOOK_TEST_CONFIG,
);
