import type { PeriodicJob } from '../../jobs/job-runner.js';
import { pruneFinishedDeliveriesBefore } from './webhook-delivery.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Finished deliveries are kept as long as events (EVENTS_RETENTION_DAYS), then removed hourly. */
export function pruneOldDeliveries(retentionDays: number): PeriodicJob {
  return {
    name: 'webhook-deliveries-prune',
    everyMs: 60 * 60 * 1000,
    run: async (db, now) => ({
      removed: await pruneFinishedDeliveriesBefore(
        db,
        new Date(now().getTime() - retentionDays * DAY_MS).toISOString(),
      ),
    }),
  };
}
