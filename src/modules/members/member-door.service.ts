import type { Executor } from '../../db/database.js';
import { findMemberById, type MemberRecord } from './member.repository.js';
import { markCheckedIn } from './member-check-in.repository.js';

export type { MemberRecord };

/** The member as stored, for a dry run of an access decision (which locks and settles nothing). */
export async function findMemberAsStored(
  db: Executor,
  facilityId: number,
  memberId: number,
): Promise<MemberRecord | undefined> {
  return findMemberById(db, facilityId, memberId);
}

/** Notes the member's last allowed check-in (src/modules/access-decisions/), in the decision's transaction. */
export async function noteCheckIn(trx: Executor, memberId: number, at: string): Promise<void> {
  await markCheckedIn(trx, memberId, at);
}
