import type { PeriodicJob } from '../../jobs/job-runner.js';
import { pruneEventsBefore } from './event.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Events past their retention are removed in the background, at most an hour late. */
export function pruneOldEvents(retentionDays: number): PeriodicJob {
  return {
    name: 'events-prune',
    everyMs: 60 * 60 * 1000,
    run: async (db, now) => ({
      removed: await pruneEventsBefore(db, new Date(now().getTime() - retentionDays * DAY_MS).toISOString()),
    }),
  };
}
