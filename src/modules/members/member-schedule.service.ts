import { addDays, todayIn } from '../../core/dates.js';
import { writeTimeAfter } from '../../core/etag.js';
import { systemWriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { journalChange } from '../../journal/journal.js';
import { changeFreeze, type FreezeRow, listFreezesOfMember } from '../freezes/freeze.service.js';
import { findMemberById, type MemberRecord } from './member.repository.js';
import { applyDue, type ScheduledMember } from './member-schedule.js';
import { updateMemberSchedule } from './member-schedule.repository.js';
import './member.events.js';

/** A member row as the schedule settles it. */
export type SettledMember = ScheduledMember & {
  id: number;
  facility_id: number;
  status_changed_at: string;
  updated_at: string;
};

/** Today in the zone furthest ahead (UTC+14): no facility's today is later than this date. */
export function latestTodayAnywhere(now: Date): string {
  return addDays(now.toISOString().slice(0, 10), 1);
}

/**
 * The member locked for a write in `trx`, with what is due of it applied
 * first: the write decides from the status the schedule job would have
 * stored (docs/decisions.md, "Reads never write"). Undefined when there is
 * no such member.
 */
export async function lockSettledMember(
  trx: Executor,
  facilityId: number,
  memberId: number,
  timeZone: string,
  now: Date,
): Promise<MemberRecord | undefined> {
  const member = await findMemberById(trx, facilityId, memberId, { lock: true });
  if (!member || member.next_change_on === null || member.next_change_on > todayIn(timeZone, now)) {
    return member;
  }
  return settleMember(trx, member, timeZone, now);
}

/**
 * Applies what is due for a member that the caller has locked in `trx`, and
 * keeps its `next_change_on` right after any write that moved its dates.
 * Each change is made once: a second settle of the same member (another
 * process's schedule job, a write) waits on the lock and then finds nothing
 * due. Changes of status are audited with actor `system` and bump
 * `updated_at`, so the ETag.
 */
export async function settleMember<M extends SettledMember>(
  trx: Executor,
  member: M,
  timeZone: string,
  now: Date,
): Promise<M> {
  const freezes = await listFreezesOfMember(trx, member.id);
  const outcome = applyDue(member, freezes, todayIn(timeZone, now), now.toISOString());
  const system = systemWriteContext(now);
  for (const freeze of outcome.changedFreezes) {
    const before = freezes.find((f) => f.id === freeze.id) as FreezeRow;
    await changeFreeze(trx, system, before, freeze);
  }
  const after = outcome.member;
  const moved = after.status !== member.status || after.status_reason !== member.status_reason;
  if (!moved && after.next_change_on === member.next_change_on) return member;
  const changes: Parameters<typeof updateMemberSchedule>[2] = { next_change_on: after.next_change_on };
  if (moved) {
    changes.status = after.status;
    changes.status_reason = after.status_reason;
    changes.updated_at = writeTimeAfter(member.updated_at, now.getTime());
    if (after.status !== member.status) changes.status_changed_at = changes.updated_at;
  }
  await updateMemberSchedule(trx, member.id, changes);
  const settled = { ...after, ...changes } as M;
  if (moved) {
    journalChange(trx, system, {
      facilityId: member.facility_id,
      resourceType: 'member',
      resourceId: member.id,
      action: 'update',
      before: member as unknown as Record<string, unknown>,
      after: settled as unknown as Record<string, unknown>,
    });
  }
  return settled;
}
