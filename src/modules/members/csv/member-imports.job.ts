import type { PeriodicJob } from '../../../jobs/job-runner.js';
import { deleteAbandonedUploads, deleteExpiredImports } from './member-import.repository.js';
import { deleteChunksOfFinishedImports } from './member-import-data.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every ten minutes, once across processes: finished import jobs past their
 * `expires_at` (IMPORT_REPORT_RETENTION_DAYS after they ended, or sooner
 * when the setting was lowered since) go with their reports; uploads whose
 * process died go with their bytes; and bytes a finished job's process did
 * not get to delete.
 */
export function pruneMemberImports(retentionDays: number): PeriodicJob {
  return {
    name: 'member-imports-prune',
    everyMs: 10 * 60 * 1000,
    run: async (db, clock) => {
      const now = clock();
      const retentionEnd = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
      return {
        removed: await deleteExpiredImports(db, now.toISOString(), retentionEnd),
        abandonedUploads: await deleteAbandonedUploads(db, now.toISOString()),
        strayChunks: await deleteChunksOfFinishedImports(db),
      };
    },
  };
}
