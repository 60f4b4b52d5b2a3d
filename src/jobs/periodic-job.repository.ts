import type { Db } from '../db/database.js';

/** Adds a job's row once, due at once; a row that exists keeps its schedule. */
export async function insertPeriodicJobIfMissing(db: Db, name: string, now: Date): Promise<void> {
  await db
    .insertInto('periodic_jobs')
    .values({ name, next_run_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/**
 * Takes a due run of a job: one conditional UPDATE, atomic on both engines
 * (a row lock on PostgreSQL, the single writer on SQLite), so of several
 * processes that try at once exactly one moves `next_run_at` on and runs it.
 * True when this process took it.
 */
export async function claimDuePeriodicJob(
  db: Db,
  claim: { name: string; now: Date; nextRunAt: Date; leasedUntil: Date },
): Promise<boolean> {
  const now = claim.now.toISOString();
  const result = await db
    .updateTable('periodic_jobs')
    .set({
      next_run_at: claim.nextRunAt.toISOString(),
      leased_until: claim.leasedUntil.toISOString(),
      last_started_at: now,
    })
    .where('name', '=', claim.name)
    .where('next_run_at', '<=', now)
    .where((where) => where.or([where('leased_until', 'is', null), where('leased_until', '<=', now)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Ends a run: the lease is given back and the outcome kept for operators. */
export async function releasePeriodicJob(
  db: Db,
  release: { name: string; finishedAt: Date; error: string | null },
): Promise<void> {
  await db
    .updateTable('periodic_jobs')
    .set({
      leased_until: null,
      last_finished_at: release.finishedAt.toISOString(),
      last_error: release.error,
    })
    .where('name', '=', release.name)
    .execute();
}
