import type { Executor } from '../../db/database.js';

/** The schedule's columns of a member; `updated_at` only when its representation changes. */
export async function updateMemberSchedule(
  db: Executor,
  memberId: number,
  changes: {
    status?: string;
    status_reason?: string | null;
    status_changed_at?: string;
    next_change_on: string | null;
    updated_at?: string;
  },
): Promise<void> {
  await db.updateTable('members').set(changes).where('id', '=', memberId).execute();
}

/**
 * Members with something due by `latestDate` (a date no facility's today is
 * past yet), after `afterId`, in id order: the schedule job's candidates, read
 * through the partial index on `next_change_on`.
 */
export async function findMembersMaybeDue(
  db: Executor,
  latestDate: string,
  afterId: number,
  limit: number,
): Promise<{ id: number; facility_id: number; next_change_on: string }[]> {
  const rows = await db
    .selectFrom('members')
    .select(['id', 'facility_id', 'next_change_on'])
    .where('next_change_on', 'is not', null)
    .where('next_change_on', '<=', latestDate)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as { id: number; facility_id: number; next_change_on: string }[];
}
