/**
 * Webhook delivery when receivers fail: retried until it succeeds, in order per
 * resource, with the attempts recorded; failed after the last attempt, and
 * sent again with the same webhook-id when retried; an endpoint that answers
 * 410, or whose every delivery failed for 5 days, is disabled and says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../../../test/eventually.js';
import { describeEachDialect } from '../../../test/harness.js';
import { receiverForSuite, startTestWorker, WEBHOOK_TEST_CONFIG } from './webhook.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

interface Delivery {
  id: number;
  status: string;
  attempts: number;
  webhook_id: string;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

describeEachDialect(
  'webhook deliveries: failures and retries',
  (api) => {
    const receiver = receiverForSuite();
    const { forFacility } = receiver;
    const endpoint = async (facility: number) => {
      const created = await api.post(`${f(facility)}/webhook-endpoints`, { url: receiver.url });
      assert.equal(created.status, 201, created.text);
      return created.body.id as number;
    };
    const deliveries = async (facility: number, id: number) =>
      (await api.get(`${f(facility)}/webhook-endpoints/${id}/deliveries`)).body.deliveries as Delivery[];
    const read = async (facility: number, id: number) =>
      (await api.get(`${f(facility)}/webhook-endpoints/${id}`)).body;

    test('a receiver that fails, then recovers, gets every event once per success, in order, with retries recorded', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const id = await endpoint(facility);
        receiver.answers.push(500, 503);
        const plan = await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        for (const price of [1, 2, 3])
          await api.patch(`${f(facility)}/plans/${plan.body.id}`, { price_amount: price });
        await eventually('four deliveries', () => forFacility(facility).length === 4);
        const prices = forFacility(facility).map((r) => JSON.parse(r.body).data.price_amount);
        assert.deepEqual(prices, [0, 1, 2, 3], 'one resource, in order');
        // The receiver has the last message a moment before the worker records its success.
        const recorded = await eventually('four recorded successes', async () => {
          const list = await deliveries(facility, id);
          return list.filter((d) => d.status === 'succeeded').length === 4 && list;
        });
        assert.deepEqual([recorded[0].attempts, recorded[0].last_response_status], [3, 204]);
      } finally {
        await worker.stop();
      }
    });

    test('a delivery that fails every attempt is failed with its last answer; retry sends it again with the same webhook-id', async () => {
      const worker = startTestWorker(api.app, { retryDelaysMs: [20] });
      try {
        const facility = api.newFacility();
        const id = await endpoint(facility);
        receiver.answers.push(500, 502);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const [failed] = await eventually('a failed delivery', async () => {
          const list = await deliveries(facility, id);
          return list[0]?.status === 'failed' && list;
        });
        assert.deepEqual(
          [failed.attempts, failed.last_response_status, failed.last_error, failed.next_attempt_at],
          [2, 502, 'answered 502', null],
        );
        const retried = await api.post(
          `${f(facility)}/webhook-endpoints/${id}/deliveries/${failed.id}/retry`,
        );
        assert.equal(retried.status, 202);
        const [sent] = await eventually(
          'the retry sent',
          () => forFacility(facility).length === 1 && forFacility(facility),
        );
        assert.equal(sent.headers['webhook-id'], failed.webhook_id);
        await eventually(
          'the retry recorded',
          async () => (await deliveries(facility, id))[0].status === 'succeeded',
        );
      } finally {
        await worker.stop();
      }
    });

    test('an endpoint that answers 410 is disabled and says why', async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        const id = await endpoint(facility);
        const before = await api.get(`${f(facility)}/webhook-endpoints/${id}`);
        receiver.answers.push(410);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const disabled = await eventually('the endpoint disabled', async () => {
          const body = await read(facility, id);
          return body.enabled === false && body;
        });
        assert.match(disabled.disabled_reason, /410/);
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
        const id = await endpoint(facility);
        // The worker runs on the system clock: six days before it.
        const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600_000).toISOString();
        await api.app.db
          .updateTable('webhook_endpoints')
          .set({ failing_since: sixDaysAgo })
          .where('id', '=', id)
          .execute();
        receiver.answers.push(500);
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        const disabled = await eventually('the endpoint disabled', async () => {
          const body = await read(facility, id);
          return body.enabled === false && body;
        });
        assert.match(disabled.disabled_reason, /^Every delivery failed from/);
        const enabled = await api.patch(`${f(facility)}/webhook-endpoints/${id}`, { enabled: true });
        assert.deepEqual([enabled.body.enabled, enabled.body.disabled_reason], [true, null]);
        // Re-enabled, its pending delivery goes out.
        await eventually('the pending delivery sent', () => forFacility(facility).length === 1);
      } finally {
        await worker.stop();
      }
    });
  },
  WEBHOOK_TEST_CONFIG,
);
