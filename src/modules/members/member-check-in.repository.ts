import type { Executor } from '../../db/database.js';

/**
 * A member's last allowed check-in. Not a change of the member (no
 * `updated_at`, no ETag, no member event): the check-in's own event says it.
 */
export async function markCheckedIn(db: Executor, memberId: number, at: string): Promise<void> {
  await db.updateTable('members').set({ last_check_in_at: at }).where('id', '=', memberId).execute();
}
