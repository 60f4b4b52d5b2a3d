/**
 * Webhook delivery, what arrives: every change reaches a receiver on loopback,
 * as the feed has it, signed by the Standard Webhooks scheme (verified with the
 * `standardwebhooks` package) with the endpoint's secret, and after a
 * rotation with the previous one too; a test ping is signed alike. How fast a
 * change arrives is the benchmark's to say, not a test's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../../test/eventually.js';
import { describeEachDialect } from '../../../test/harness.js';
import { receiverForSuite, startTestWorker, WEBHOOK_TEST_CONFIG } from './webhook.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

describeEachDialect(
  'webhook deliveries: what arrives',
  (api) => {
    const receiver = receiverForSuite();
    const { forFacility } = receiver;
    const endpoint = async (facility: number) => {
      const created = await api.post(`${f(facility)}/webhook-endpoints`, { url: receiver.url });
      assert.equal(created.status, 201, created.text);
      return created.body as { id: number; secret: string };
    };

    test('every change reaches the receiver, signed, as the feed has it', async () => {
      const worker = startTestWorker(api.app, { pollIntervalMs: 200 });
      try {
        const facility = api.newFacility();
        const { secret } = await endpoint(facility);
        const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        await api.patch(`${f(facility)}/plans/${plan.body.id}`, { price_amount: 5 });
        const member = await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
        await api.patch(`${f(facility)}/members/${member.body.id}`, { status: 'frozen' });
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        // Six events: the move to frozen opens a freeze too (member.freeze_created).
        await eventually('six deliveries', () => forFacility(facility).length === 6);
        const verifier = new Webhook(secret);
        // Deliveries of different resources run side by side: compared by event id.
        const delivered = forFacility(facility)
          .map((r) => ({
            id: r.headers['webhook-id'],
            body: verifier.verify(r.body, r.headers as Record<string, string>) as { id: number },
          }))
          .sort((a, b) => a.body.id - b.body.id);
        // The feed may hold an event back a moment longer, while any older transaction still runs.
        const feed = await eventually('six events in the feed', async () => {
          const page = await api.get(`${f(facility)}/events`);
          return page.body.events.length === 6 && page.body.events;
        });
        assert.deepEqual(
          delivered.map((d) => d.body),
          feed,
        );
        assert.deepEqual(
          delivered.map((d) => d.id),
          feed.map((e: { id: number }) => `evt_${e.id}`),
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
        const [delivered] = await eventually(
          'the delivery',
          () => forFacility(facility).length === 1 && forFacility(facility),
        );
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
        const [delivered] = await eventually(
          'the delivery',
          () => forFacility(facility).length === 1 && forFacility(facility),
        );
        const headers = delivered.headers as Record<string, string>;
        assert.ok(new Webhook(old).verify(delivered.body, headers));
        assert.ok(new Webhook(rotated.body.secret).verify(delivered.body, headers));
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
        const [ping] = await eventually(
          'the ping',
          () => forFacility(facility).length === 1 && forFacility(facility),
        );
        const body = new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>) as {
          type: string;
          data: unknown;
        };
        assert.deepEqual([body.type, body.data], ['ping', { endpoint_id: id }]);
      } finally {
        await worker.stop();
      }
    });
  },
  WEBHOOK_TEST_CONFIG,
);
