import type { PeriodicJob } from '../../jobs/job-runner.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency.hooks.js';
import { purgeIdempotencyKeysBefore } from './idempotency.repository.js';

/** Keys past the window are removed in the background, at most ten minutes late. */
export const purgeExpiredIdempotencyKeys: PeriodicJob = {
  name: 'idempotency-keys-purge',
  everyMs: 10 * 60 * 1000,
  run: async (db, now) => ({
    removed: await purgeIdempotencyKeysBefore(
      db,
      new Date(now().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
    ),
  }),
};
