import { todayIn } from '../../core/dates.js';
import { writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db } from '../../db/database.js';
import { writeExisting } from '../../journal/write-path.js';
import { endFreezeOfStatusMove } from '../freezes/freeze.service.js';
import { readPolicySettings } from '../policy/policy.service.js';
import { deleteMemberById, updateMember } from './member.repository.js';
import { memberTarget } from './member.service.js';
import './member.events.js';

/** Soft delete marks the member removed (once); hard delete erases the row (its freezes with it). */
export async function deleteMember(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  hard: boolean,
) {
  const target = memberTarget(facilityId, memberId);
  await writeExisting(db, context, target, async ({ trx, now, record }, member) => {
    const audit = { facilityId, resourceType: 'member', resourceId: memberId, before: member } as const;
    if (hard) {
      await deleteMemberById(trx, memberId);
      record({ ...audit, action: 'hard_delete', after: null });
      return;
    }
    if (member.status === 'removed') return;
    if (member.status === 'frozen') {
      const policy = await readPolicySettings(trx, facilityId);
      await endFreezeOfStatusMove(trx, context, memberId, todayIn(policy.timezone, now));
    }
    const at = writeTimeAfter(member.updated_at, now.getTime());
    const fields = { status: 'removed', status_changed_at: at, deleted_at: at } as const;
    const removed = await updateMember(trx, memberId, fields, at);
    record({ ...audit, action: 'delete', after: removed });
  });
}
