import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDialect } from '../../test/harness.js';

describeEachDialect('periodic jobs in the service', (api) => {
  const purgeRuns = async () => {
    const metrics = await api.get('/metrics');
    const match = /periodic_job_runs_total\{job="idempotency-keys-purge",outcome="succeeded"\} (\d+)/.exec(
      metrics.text,
    );
    return match === null ? 0 : Number(match[1]);
  };

  test('a service that is not listening runs no job (tests, the CLI)', async () => {
    assert.equal(await purgeRuns(), 0);
  });

  test('a listening service runs its jobs at start and shows them in /metrics', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    for (let waited = 0; (await purgeRuns()) === 0 && waited < 3000; waited += 50) await sleep(50);
    assert.equal(await purgeRuns(), 1);
    const metrics = (await api.get('/metrics')).text;
    assert.match(metrics, /periodic_job_last_run_seconds\{job="idempotency-keys-purge"\} \d/);
    assert.match(metrics, /periodic_job_last_duration_seconds\{job="idempotency-keys-purge"\} \d/);
    const row = await api.app.db
      .selectFrom('periodic_jobs')
      .selectAll()
      .where('name', '=', 'idempotency-keys-purge')
      .executeTakeFirstOrThrow();
    assert.equal(row.last_error, null);
    assert.ok(new Date(row.next_run_at).getTime() > Date.now() + 9 * 60_000, 'next run in about ten minutes');
  });
});
