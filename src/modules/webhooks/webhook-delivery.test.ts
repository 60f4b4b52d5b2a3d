/**
 * Webhook delivery: every change reaches a receiver on loopback, signed by the
 * Standard Webhooks scheme (verified with the `standardwebhooks` package),
 * retried until it succeeds, in order per resource, once across two workers,
 * and never to a private address unless allowed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { describeEachDialect } from '../../../test/harness.js';
import type { App } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { deliveryWorkerSettings } from '../../modules.js';
import { startDeliveryWorker } from './delivery.worker.js';
import {
  eventually,
  type Receiver,
  startReceiver,
  startTestWorker,
  WEBHOOK_TEST_CONFIG,
} from './webhook.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

describeEachDialect(
  'webhook deliveries',
  (api) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());
    const forFacility = (facility: number) =>
      receiver.received.filter((r) => JSON.parse(r.body).facility_id === facility);
    const endpoint = async (facility: number, body: Record<string, unknown> = {}) => {
      const created = await api.post(`${f(facility)}/webhook-endpoints`, { url: receiver.url, ...body });
      assert.equal(created.status, 201, created.text);
      return created.body as { id: number; secret: string };
    };

    test('every change reaches the receiver within a second, signed, as the feed has it', async () => {
      const worker = startTestWorker(api.app, { pollIntervalMs: 200 });
      try {
        const facility = api.newFacility();
        const { secret } = await endpoint(facility);
        const started = Date.now();
        const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        await api.patch(`${f(facility)}/plans/${plan.body.id}`, { price_amount: 5 });
        const member = await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
        await api.patch(`${f(facility)}/members/${member.body.id}`, { status: 'frozen' });
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        // Six events: the move to frozen opens a freeze too (member.freeze_created).
        await eventually(() => forFacility(facility).length === 6, 5000, 'six deliveries');
        assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
        const verifier = new Webhook(secret);
        // Deliveries of different resources run side by side: compared by event id.
        const delivered = forFacility(facility)
          .map((r) => ({
            id: r.headers['webhook-id'],
            body: verifier.verify(r.body, r.headers as Record<string, string>) as { id: number },
          }))
          .sort((a, b) => a.body.id - b.body.id);
        // The feed may hold an event back a moment longer, while any older transaction still runs.
        let feed = await api.get(`${f(facility)}/events`);
        await eventually(async () => {
          feed = await api.get(`${f(facility)}/events`);
          return feed.body.events.length === 6;
        });
        assert.deepEqual(
          delivered.map((d) => d.body),
          feed.body.events,
        );
        assert.deepEqual(
          delivered.map((d) => d.id),
          feed.body.events.map((e: { id: number }) => `evt_${e.id}`),
        );
      } finally {
        await worker.stop();
      }
    });

    test('a signature by another secret does not verify', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        await endpoint(facility);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        await eventually(() => forFacility(facility).length === 1);
        const [delivered] = forFacility(facility);
        const other = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
        assert.throws(() => other.verify(delivered.body, delivered.headers as Record<string, string>));
      } finally {
        await worker.stop();
      }
    });

    test('after a rotation both the new and the previous secret verify', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const { id, secret: old } = await endpoint(facility);
        const rotated = await api.post(`${f(facility)}/webhook-endpoints/${id}/rotate-secret`);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        await eventually(() => forFacility(facility).length === 1);
        const [delivered] = forFacility(facility);
        const headers = delivered.headers as Record<string, string>;
        assert.ok(new Webhook(old).verify(delivered.body, headers));
        assert.ok(new Webhook(rotated.body.secret).verify(delivered.body, headers));
      } finally {
        await worker.stop();
      }
    });

    test("only the endpoint's types are delivered; a disabled endpoint gets nothing", async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        await endpoint(facility, { types: ['member.created'] });
        await endpoint(facility, { enabled: false });
        await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
        await eventually(() => forFacility(facility).length >= 1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.deepEqual(
          forFacility(facility).map((r) => JSON.parse(r.body).type),
          ['member.created'],
        );
      } finally {
        await worker.stop();
      }
    });

    test('a receiver that fails, then recovers, gets every event once per success, in order, with retries recorded', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const { id } = await endpoint(facility);
        receiver.answers.push(500, 503);
        const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        for (const price of [1, 2, 3])
          await api.patch(`${f(facility)}/plans/${plan.body.id}`, { price_amount: price });
        await eventually(() => forFacility(facility).length === 4, 5000, 'four deliveries');
        const prices = forFacility(facility).map((r) => JSON.parse(r.body).data.price_amount);
        assert.deepEqual(prices, [0, 1, 2, 3], 'one resource, in order');
        const list = async () =>
          (await api.get(`${f(facility)}/webhook-endpoints/${id}/deliveries`)).body.deliveries as {
            status: string;
            attempts: number;
            last_response_status: number;
          }[];
        // The receiver has the last message a moment before the worker records its success.
        await eventually(
          async () => (await list()).filter((d) => d.status === 'succeeded').length === 4,
          5000,
          'four recorded successes',
        );
        const deliveries = await list();
        assert.equal(deliveries[0].attempts, 3);
        assert.equal(deliveries[0].last_response_status, 204);
      } finally {
        await worker.stop();
      }
    });

    test('a delivery that fails every attempt is failed with its last answer; retry sends it again with the same webhook-id', async () => {
      const worker = startTestWorker(api.app, { retryDelaysMs: [20] });
      try {
        const facility = api.newFacility();
        const { id } = await endpoint(facility);
        receiver.answers.push(500, 502);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const list = async () =>
          (await api.get(`${f(facility)}/webhook-endpoints/${id}/deliveries`)).body.deliveries;
        await eventually(async () => (await list())[0]?.status === 'failed', 5000, 'a failed delivery');
        const [failed] = await list();
        assert.deepEqual(
          [failed.attempts, failed.last_response_status, failed.last_error],
          [2, 502, 'answered 502'],
        );
        assert.equal(failed.next_attempt_at, null);
        const retried = await api.post(
          `${f(facility)}/webhook-endpoints/${id}/deliveries/${failed.id}/retry`,
        );
        assert.equal(retried.status, 202);
        await eventually(() => forFacility(facility).length === 1);
        assert.equal(forFacility(facility)[0].headers['webhook-id'], failed.webhook_id);
        await eventually(async () => (await list())[0].status === 'succeeded', 5000, 'the retry recorded');
      } finally {
        await worker.stop();
      }
    });

    test('an endpoint that answers 410 is disabled and says why', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const { id } = await endpoint(facility);
        const before = await api.get(`${f(facility)}/webhook-endpoints/${id}`);
        receiver.answers.push(410);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const read = async () => (await api.get(`${f(facility)}/webhook-endpoints/${id}`)).body;
        await eventually(async () => (await read()).enabled === false, 5000, 'the endpoint disabled');
        assert.match((await read()).disabled_reason, /410/);
        // Disabled by the service is a change: an edit based on the read before it is refused.
        const stale = await api.patch(
          `${f(facility)}/webhook-endpoints/${id}`,
          { description: 'x' },
          { 'if-match': String(before.headers.etag) },
        );
        assert.equal(stale.status, 412, stale.text);
      } finally {
        await worker.stop();
      }
    });

    test('an endpoint whose every delivery failed for 5 days is disabled and says why', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const { id } = await endpoint(facility);
        const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600_000).toISOString();
        await api.app.db
          .updateTable('webhook_endpoints')
          .set({ failing_since: sixDaysAgo })
          .where('id', '=', id)
          .execute();
        receiver.answers.push(500);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const read = async () => (await api.get(`${f(facility)}/webhook-endpoints/${id}`)).body;
        await eventually(async () => (await read()).enabled === false, 5000, 'the endpoint disabled');
        assert.match((await read()).disabled_reason, /^Every delivery failed from/);
        const enabled = await api.patch(`${f(facility)}/webhook-endpoints/${id}`, { enabled: true });
        assert.deepEqual([enabled.body.enabled, enabled.body.disabled_reason], [true, null]);
        // Re-enabled, its pending delivery goes out.
        await eventually(() => forFacility(facility).length === 1, 5000, 'the pending delivery sent');
      } finally {
        await worker.stop();
      }
    });

    test('test sends a signed ping', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const { id, secret } = await endpoint(facility);
        const queued = await api.post(`${f(facility)}/webhook-endpoints/${id}/test`);
        assert.equal(queued.status, 202);
        assert.equal(queued.body.type, 'ping');
        await eventually(() => forFacility(facility).length === 1);
        const [ping] = forFacility(facility);
        const body = new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>) as {
          type: string;
          data: unknown;
        };
        assert.deepEqual([body.type, body.data], ['ping', { endpoint_id: id }]);
      } finally {
        await worker.stop();
      }
    });

    test('two workers deliver each event once', async () => {
      // On PostgreSQL the second worker has its own connection pool, as another instance would.
      const second = api.dialect === 'postgres' ? openDatabase(api.app.config.databaseUrl) : undefined;
      const workers = [startTestWorker(api.app), startTestWorker(api.app, {}, second?.db)];
      try {
        const facility = api.newFacility();
        await endpoint(facility);
        const members = await Promise.all(
          Array.from({ length: 30 }, (_, i) => api.post(`${f(facility)}/members`, { first_name: `M${i}` })),
        );
        assert.ok(members.every((m) => m.status === 201));
        await eventually(() => forFacility(facility).length >= 30, 10_000, 'thirty deliveries');
        await new Promise((resolve) => setTimeout(resolve, 300));
        const ids = forFacility(facility).map((r) => r.headers['webhook-id']);
        assert.equal(new Set(ids).size, 30);
        assert.equal(ids.length, 30);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await second?.close();
      }
    });
  },
  WEBHOOK_TEST_CONFIG,
);

describeEachDialect('webhook deliveries: private addresses', (api) => {
  test('a delivery to a loopback, private or metadata address is refused when private URLs are not allowed', async () => {
    const app = api.app as App;
    const worker = startDeliveryWorker(
      app.db,
      {
        ...deliveryWorkerSettings(app.config, app.secrets as NonNullable<App['secrets']>),
        pollIntervalMs: 20,
        retryDelaysMs: [],
      },
      app.log,
    );
    try {
      const facility = api.newFacility();
      const urls = [
        'https://127.0.0.1:9/',
        'https://10.1.2.3/',
        'https://169.254.169.254/latest',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://localhost:9/',
      ];
      for (const url of urls)
        assert.equal((await api.post(`${f(facility)}/webhook-endpoints`, { url })).status, 201);
      await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
      const deliveries = () =>
        app.db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('type', '=', 'policy.updated')
          .where(
            'endpoint_id',
            'in',
            app.db.selectFrom('webhook_endpoints').select('id').where('facility_id', '=', facility),
          )
          .execute();
      await eventually(
        async () =>
          (await deliveries()).every((d) => d.status === 'failed') &&
          (await deliveries()).length === urls.length,
        5000,
        'all refused',
      );
      for (const delivery of await deliveries()) {
        assert.equal(delivery.last_response_status, null);
        assert.match(delivery.last_error ?? '', /not a public address/);
      }
    } finally {
      await worker.stop();
    }
  });
});
