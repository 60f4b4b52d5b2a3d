/**
 * Webhook delivery, who gets what: an endpoint gets only its event types, a
 * disabled one gets nothing, two workers deliver each event once, a delivery
 * to a private address is refused unless allowed, and a retry of a delivery
 * the endpoint does not have is 404. Absence is asserted after a later
 * message was seen, never after a pause.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../../../test/eventually.js';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import type { App } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { deliveryWorkerSettings } from '../../modules.js';
import { startDeliveryWorker } from './delivery.worker.js';
import { receiverForSuite, startTestWorker, WEBHOOK_TEST_CONFIG } from './webhook.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;

describeEachDialect(
  'webhook deliveries: who gets what',
  (api) => {
    const receiver = receiverForSuite();
    const { forFacility } = receiver;
    /** The types each endpoint (told apart by its URL's query) received, in order. */
    const typesAt = (facility: number, name: string) =>
      forFacility(facility)
        .filter((r) => r.url.endsWith(`?endpoint=${name}`))
        .map((r) => JSON.parse(r.body).type);
    const endpoint = async (facility: number, name: string, body: Record<string, unknown> = {}) => {
      const url = `${receiver.url}?endpoint=${name}`;
      const created = await api.post(`${f(facility)}/webhook-endpoints`, { url, ...body });
      assert.equal(created.status, 201, created.text);
      return created.body.id as number;
    };

    test("only the endpoint's types are delivered; a disabled endpoint gets nothing", async () => {
      const worker = startTestWorker(api.app);
      try {
        const facility = api.newFacility();
        await endpoint(facility, 'members', { types: ['member.created'] });
        await endpoint(facility, 'disabled', { enabled: false });
        await endpoint(facility, 'all');
        await api.post(`${f(facility)}/plans`, { name: 'Gold' });
        await api.post(`${f(facility)}/members`, { first_name: 'Ada' });
        // A later event, seen by an endpoint that takes every type: the others had their turns by then.
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        await eventually('the later event at the endpoint of every type', () =>
          typesAt(facility, 'all').includes('policy.updated'),
        );
        await eventually(
          'the member at the endpoint of members',
          () => typesAt(facility, 'members').length > 0,
        );
        assert.deepEqual(typesAt(facility, 'all'), ['plan.created', 'member.created', 'policy.updated']);
        assert.deepEqual(typesAt(facility, 'members'), ['member.created']);
        assert.deepEqual(typesAt(facility, 'disabled'), []);
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
        const id = await endpoint(facility, 'one');
        const members = await Promise.all(
          Array.from({ length: 30 }, (_, i) => api.post(`${f(facility)}/members`, { first_name: `M${i}` })),
        );
        assert.ok(members.every((m) => m.status === 201));
        // A later event, after the thirty: once it is delivered and every delivery recorded, none is due again.
        await api.patch(`${f(facility)}/policy`, { currency: 'EUR' });
        await eventually('the later event delivered', () =>
          typesAt(facility, 'one').includes('policy.updated'),
        );
        await eventually('the 31 deliveries recorded as succeeded', async () => {
          const page = await api.get(`${f(facility)}/webhook-endpoints/${id}/deliveries?limit=100`);
          return (
            page.body.deliveries.filter((d: { status: string }) => d.status === 'succeeded').length === 31
          );
        });
        const ids = forFacility(facility).map((r) => r.headers['webhook-id']);
        assert.equal(new Set(ids).size, 31);
        assert.equal(ids.length, 31);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await second?.close();
      }
    });

    test('a retry of a delivery the endpoint does not have is 404 delivery_not_found', async () => {
      const facility = api.newFacility();
      const id = await endpoint(facility, 'one');
      const other = await endpoint(facility, 'other');
      const ping = await api.post(`${f(facility)}/webhook-endpoints/${other}/test`);
      assert.equal(ping.status, 202);
      // Another endpoint's delivery, and one that never was.
      for (const delivery of [ping.body.id, ping.body.id + 1000]) {
        const retried = await api.post(`${f(facility)}/webhook-endpoints/${id}/deliveries/${delivery}/retry`);
        assertProblem(retried, 404, 'delivery_not_found');
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
      const refused = await eventually('every delivery refused', async () => {
        const rows = await deliveries();
        return rows.length === urls.length && rows.every((d) => d.status === 'failed') && rows;
      });
      for (const delivery of refused) {
        assert.equal(delivery.last_response_status, null);
        assert.match(delivery.last_error ?? '', /not a public address/);
      }
    } finally {
      await worker.stop();
    }
  });
});
