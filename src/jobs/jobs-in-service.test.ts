import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../../test/eventually.js';
import { describeEachDialect } from '../../test/harness.js';
import { purgeExpiredIdempotencyKeys } from '../infrastructure/idempotency/idempotency.job.js';

describeEachDialect('periodic jobs in the service', (api) => {
  const purgeRuns = async () => {
    const metrics = await api.get('/metrics');
    const match = /periodic_job_runs_total\{job="idempotency-keys-purge",outcome="succeeded"\} (\d+)/.exec(
      metrics.text,
    );
    return match === null ? 0 : Number(match[1]);
  };
  const row = () =>
    api.app.db
      .selectFrom('periodic_jobs')
      .selectAll()
      .where('name', '=', 'idempotency-keys-purge')
      .executeTakeFirst();

  test('a service that is not listening has started no job (tests, the CLI)', async () => {
    assert.equal(await purgeRuns(), 0);
    // A runner adds its job's row on its first tick: none has ticked.
    assert.equal(await row(), undefined);
  });

  test('a listening service runs its jobs at start and shows them in /metrics', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    await eventually('the first purge', async () => (await purgeRuns()) > 0);
    assert.equal(await purgeRuns(), 1);
    const metrics = (await api.get('/metrics')).text;
    assert.match(metrics, /periodic_job_last_run_seconds\{job="idempotency-keys-purge"\} \d/);
    assert.match(metrics, /periodic_job_last_duration_seconds\{job="idempotency-keys-purge"\} \d/);
    const ran = await row();
    assert.equal(ran?.last_error, null);
    // The next run is due one period after this one started.
    // (Text on SQLite, a Date on PostgreSQL.)
    const at = (value: unknown) => new Date(value as string).getTime();
    assert.equal(at(ran?.next_run_at) - at(ran?.last_started_at), purgeExpiredIdempotencyKeys.everyMs);
  });
});
