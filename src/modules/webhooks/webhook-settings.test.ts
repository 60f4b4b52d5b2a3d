/**
 * The settings of events and webhooks, the secrets key, and the pruning of
 * old events and deliveries.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertProblem, describeEachDialect, removeSqliteFiles } from '../../../test/harness.js';
import { ConfigError, loadConfig } from '../../config.js';
import { secretBox } from '../../infrastructure/secrets/secret-box.js';
import { loadSecretsKey } from '../../infrastructure/secrets/secrets-key.js';
import { pruneOldEvents } from '../events/events.job.js';
import { isPublicAddress } from './safe-address.js';
import { pruneOldDeliveries } from './webhooks.job.js';

test('events and webhooks settings: defaults, and invalid values refused by name', () => {
  const config = loadConfig({});
  assert.deepEqual(
    [
      config.eventsRetentionDays,
      config.webhookTimeoutMs,
      config.webhookAllowHttp,
      config.webhookAllowPrivateUrls,
    ],
    [30, 10_000, false, false],
  );
  assert.equal(config.secretsKey, undefined);
  const hex = randomBytes(32).toString('hex');
  assert.equal(loadConfig({ SECRETS_KEY: hex }).secretsKey?.toString('hex'), hex);
  const base64 = randomBytes(32).toString('base64');
  assert.equal(loadConfig({ SECRETS_KEY: base64 }).secretsKey?.toString('base64'), base64);
  for (const env of [
    { SECRETS_KEY: 'short' },
    { SECRETS_KEY: randomBytes(16).toString('hex') },
    { WEBHOOK_ALLOW_HTTP: 'yes' },
    { EVENTS_RETENTION_DAYS: '0' },
  ]) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && error.message.includes(Object.keys(env)[0]),
    );
  }
});

test('a sealed secret opens with its key only, and a changed one does not open', () => {
  const box = secretBox(randomBytes(32));
  const sealed = box.seal('whsec_abc');
  assert.equal(box.open(sealed), 'whsec_abc');
  assert.notEqual(box.seal('whsec_abc'), sealed, 'a new nonce each time');
  assert.throws(() => secretBox(randomBytes(32)).open(sealed));
  const [v, nonce, tag, data] = sealed.split('.');
  const flipped = Buffer.from(data, 'base64url');
  flipped[0] ^= 1;
  assert.throws(() => box.open([v, nonce, tag, flipped.toString('base64url')].join('.')));
});

test('without SECRETS_KEY, SQLite keeps a key made on first start beside its file; PostgreSQL has none', () => {
  const file = join(tmpdir(), `secrets-${process.pid}-${Date.now()}.db`);
  try {
    const config = { ...loadConfig({}), databaseUrl: `sqlite:${file}` };
    const first = loadSecretsKey(config);
    assert.equal(first?.length, 32);
    assert.ok(existsSync(`${file}.secrets-key`));
    assert.equal(statSync(`${file}.secrets-key`).mode & 0o777, 0o600);
    assert.deepEqual(loadSecretsKey(config), first);
    assert.equal(readFileSync(`${file}.secrets-key`, 'utf8').trim(), first?.toString('hex'));
    assert.equal(loadSecretsKey({ ...config, databaseUrl: 'postgres://x@127.0.0.1/db' }), undefined);
  } finally {
    removeSqliteFiles(file);
    removeSqliteFiles(`${file}.secrets-key`);
  }
});

test('public unicast addresses are public; private, loopback, link-local, metadata and mapped ones are not', () => {
  for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
    assert.ok(isPublicAddress(address), address);
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ]) {
    assert.ok(!isPublicAddress(address), address);
  }
});

describeEachDialect('events and deliveries are pruned after their retention', (api) => {
  test('the prune jobs remove events and finished deliveries older than the retention, and nothing newer', async () => {
    const facility = api.newFacility();
    const endpoint = await api.post(`/admin/facilities/${facility}/webhook-endpoints`, {
      url: 'https://hooks.example.com/in',
    });
    assert.equal(endpoint.status, 201);
    await api.patch(`/admin/facilities/${facility}/policy`, { currency: 'EUR' });
    await api.patch(`/admin/facilities/${facility}/policy`, { currency: 'GBP' });
    const old = new Date(Date.now() - 31 * 24 * 3600_000).toISOString();
    const [first] = (await api.get(`/admin/facilities/${facility}/events`)).body.events;
    await api.app.db.updateTable('events').set({ occurred_at: old }).where('id', '=', first.id).execute();
    await api.app.db
      .updateTable('webhook_deliveries')
      .set({ status: 'succeeded', created_at: old })
      .where('endpoint_id', '=', endpoint.body.id)
      .execute();
    await pruneOldEvents(30).run(api.app.db, api.app.now);
    await pruneOldDeliveries(30).run(api.app.db, api.app.now);
    const left = (await api.get(`/admin/facilities/${facility}/events`)).body.events;
    assert.deepEqual(
      left.map((e: { data: { currency: string } }) => e.data.currency),
      ['GBP'],
    );
    const deliveries = await api.get(
      `/admin/facilities/${facility}/webhook-endpoints/${endpoint.body.id}/deliveries`,
    );
    assert.deepEqual(deliveries.body.deliveries, []);
  });
});

describeEachDialect(
  'webhooks without a secrets key',
  (api) => {
    test('creating an endpoint is 503 service_unavailable; the feed works', async (t) => {
      if (api.dialect !== 'postgres') return t.skip('SQLite makes its own key');
      const facility = api.newFacility();
      const created = await api.post(`/admin/facilities/${facility}/webhook-endpoints`, {
        url: 'https://hooks.example.com/in',
      });
      assert.match(assertProblem(created, 503, 'service_unavailable').detail, /SECRETS_KEY/);
      assert.equal((await api.get(`/admin/facilities/${facility}/events`)).status, 200);
    });
  },
  { secretsKey: undefined },
);
