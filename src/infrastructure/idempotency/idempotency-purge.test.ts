/**
 * "Concurrency and retries": a key is remembered for 24 hours, then forgotten
 * by the background purge (a periodic job).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency.hooks.js';
import { purgeExpiredIdempotencyKeys } from './idempotency.job.js';

describeEachDialect('idempotency keys: the purge', (api) => {
  const plan = (name: string) => ({ name, price_amount: 1000, currency: 'EUR', billing_period: 'monthly' });

  test('after the purge, a key older than 24 hours may be used for another request; a newer one may not', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const old = { 'idempotency-key': `old-${Math.random()}` };
    const recent = { 'idempotency-key': `recent-${Math.random()}` };
    assert.equal((await api.post(url, plan('Gold'), old)).status, 201);
    assert.equal((await api.post(url, plan('Silver'), recent)).status, 201);
    const dayAndAMinuteAgo = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS - 60_000).toISOString();
    await api.app.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAndAMinuteAgo })
      .where('idempotency_key', '=', old['idempotency-key'])
      .execute();

    assert.deepEqual(await purgeExpiredIdempotencyKeys.run(api.app.db, api.app.now), { removed: 1 });

    const reused = await api.post(url, plan('Platinum'), old);
    assert.equal(reused.status, 201, reused.text);
    assert.equal(reused.body.name, 'Platinum');
    assertProblem(await api.post(url, plan('Bronze'), recent), 422, 'idempotency_key_reused');
    const names = (await api.get(`${url}?include_inactive=true`)).body.plans.map(
      (p: { name: string }) => p.name,
    );
    assert.deepEqual(names, ['Gold', 'Silver', 'Platinum'], 'the refused request created nothing');
  });
});
