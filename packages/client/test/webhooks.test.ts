/**
 * The client's events and webhooks operations, and verifyWebhook, against the
 * real service listening on a port (whose own delivery worker sends).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Receiver,
  startReceiver,
  WEBHOOK_TEST_CONFIG,
} from '../../../src/modules/webhooks/webhook.fixtures.js';
import { eventually } from '../../../test/eventually.js';
import { describeEachDialect } from '../../../test/harness.js';
import { verifyWebhook } from '../src/index.js';
import { listening, ON_THE_TEST_CLOCK, problemOf, WITH_API_KEY } from './service.js';

describeEachDialect(
  'the client: events and webhooks',
  (api) => {
    const { clientOf } = listening(api);
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    test('webhook endpoints: create, list, update, rotate, test, deliveries, retry, delete', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const created = await client.webhooks.create(facility, { url: receiver.url, types: ['plan.created'] });
      assert.match(created.secret, /^whsec_/);
      assert.deepEqual(
        (await client.webhooks.list(facility)).webhook_endpoints.map((e) => e.id),
        [created.id],
      );
      const read = await client.webhooks.get(facility, created.id);
      assert.equal(read.data.url, receiver.url);
      const updated = await client.webhooks.update(
        facility,
        created.id,
        { description: 'x' },
        { ifMatch: read.etag },
      );
      assert.equal(updated.data.description, 'x');
      assert.equal(
        (
          await problemOf(
            client.webhooks.update(facility, created.id, { description: 'y' }, { ifMatch: read.etag }),
          )
        ).code,
        'precondition_failed',
      );
      const rotated = await client.webhooks.rotateSecret(facility, created.id);
      assert.notEqual(rotated.secret, created.secret);
      const ping = await client.webhooks.test(facility, created.id);
      assert.equal(ping.type, 'ping');
      await eventually(
        'the ping delivered',
        async () =>
          (await client.webhooks.deliveries(facility, created.id)).deliveries[0]?.status === 'succeeded',
      );
      const retried = await client.webhooks.retryDelivery(facility, created.id, ping.id);
      assert.equal(retried.status, 'pending');
      await client.webhooks.delete(facility, created.id);
      assert.equal(
        (await problemOf(client.webhooks.get(facility, created.id))).code,
        'webhook_endpoint_not_found',
      );
    });

    test('events.list follows the feed; verifyWebhook accepts a delivery and refuses a changed body', async () => {
      const client = clientOf();
      const facility = api.newFacility();
      const { secret } = await client.webhooks.create(facility, { url: receiver.url });
      const start = await client.events.list(facility);
      await client.plans.create(facility, { name: 'Gold' });
      const page = await client.events.list(facility, { after: start.next_cursor, wait: 5 });
      assert.deepEqual(
        page.events.map((e) => e.type),
        ['plan.created'],
      );
      const mine = () => receiver.received.filter((r) => r.body.includes(`"facility_id":${facility},`));
      await eventually('the delivery', () => mine().length === 1);
      const [delivery] = mine();
      const message = verifyWebhook(secret, delivery.headers, delivery.body);
      assert.deepEqual(message, page.events[0]);
      assert.throws(() => verifyWebhook(secret, delivery.headers, delivery.body.replace('Gold', 'Gilt')));
      assert.throws(() =>
        verifyWebhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, delivery.headers, delivery.body),
      );
    });
  },
  { ...WITH_API_KEY, ...WEBHOOK_TEST_CONFIG },
  ON_THE_TEST_CLOCK,
);
