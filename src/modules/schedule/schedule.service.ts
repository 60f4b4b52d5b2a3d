import { addDays, todayIn } from '../../core/dates.js';
import { writeTimeAfter } from '../../core/etag.js';
import { systemWriteContext, type WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { journalChange } from '../../journal/journal.js';
import { assertNoOverlap, assertWithinYearlyLimit } from './freeze-days.js';
import { applyDue, type ScheduledMember } from './member-schedule.js';
import {
  type FreezeRow,
  insertFreeze,
  listFreezesOfMember,
  updateFreeze,
  updateMemberSchedule,
} from './schedule.repository.js';
import './freeze.events.js';

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
 * Whether something may be due for a member, from its row alone: a read
 * that sees this reads the facility's time zone and settles the member, so
 * that no reader sees a state the schedule would already have changed.
 */
export function mayBeDue(member: { next_change_on: string | null }, now: Date): boolean {
  return member.next_change_on !== null && member.next_change_on <= latestTodayAnywhere(now);
}

/**
 * Applies what is due for a member that the caller has locked in `trx`, and
 * keeps its `next_change_on` right after any write that moved its dates.
 * Each change is made once: a second settle of the same member (another
 * instance, a read) waits on the lock and then finds nothing due. Changes of
 * status are audited with actor `system` and bump `updated_at`, so the ETag.
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
    await updateFreeze(trx, freeze);
    const before = freezes.find((f) => f.id === freeze.id) as FreezeRow;
    await auditFreeze(trx, system, before, freeze);
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

/**
 * A PATCH to `frozen` freezes the member open-ended from today, and is
 * refused only by the yearly limit: `allowed_transitions`, which reads no
 * freezes, offers it (docs/decisions.md, "A PATCH to frozen").
 * - A freeze that ended today (a PATCH back to `active`, a removal) is
 *   under way again, open-ended: frozen, unfrozen and frozen again on one
 *   day is one freeze, which counts no more days than it did.
 * - Freezes planned later stay planned: the open-ended freeze ends the day
 *   before the first of them starts (member-schedule.ts), so the member is
 *   frozen throughout. It counts toward the yearly limit as every open-ended
 *   freeze does: to today.
 */
export async function openFreezeOfStatusMove(
  trx: Executor,
  context: WriteContext,
  member: { id: number; facility_id: number },
  today: string,
  maxDaysPerYear: number,
): Promise<void> {
  const freezes = await listFreezesOfMember(trx, member.id);
  // An active member's freezes that count have ended (today at the latest) or are planned after today.
  const endedToday = freezes.find((f) => f.state === 'ended' && f.ends_on === today);
  const others = freezes.filter((f) => f !== endedToday && !(f.state === 'scheduled' && f.starts_on > today));
  if (endedToday) {
    const reopened: FreezeRow = { ...endedToday, state: 'under_way', ends_on: null, cancelled_at: null };
    assertNoOverlap(reopened, others);
    await updateFreeze(trx, reopened);
    await auditFreeze(trx, context, endedToday, reopened);
    return;
  }
  const span = { starts_on: today, ends_on: null };
  assertNoOverlap(span, others);
  assertWithinYearlyLimit(span, freezes, today, maxDaysPerYear);
  const freeze = await insertFreeze(trx, {
    facility_id: member.facility_id,
    member_id: member.id,
    ...span,
    reason: null,
    state: 'under_way',
    created_at: context.now.toISOString(),
  });
  await auditFreeze(trx, context, null, freeze);
}

/** A PATCH from `frozen` ends the freeze under way today (open-ended or dated). */
export async function endFreezeOfStatusMove(
  trx: Executor,
  context: WriteContext,
  memberId: number,
  today: string,
): Promise<void> {
  for (const freeze of await listFreezesOfMember(trx, memberId)) {
    if (freeze.state !== 'under_way') continue;
    const ended: FreezeRow = {
      ...freeze,
      state: 'ended',
      ends_on: freeze.ends_on === null || freeze.ends_on > today ? today : freeze.ends_on,
    };
    await updateFreeze(trx, ended);
    await auditFreeze(trx, context, freeze, ended);
  }
}

export async function auditFreeze(
  trx: Executor,
  context: WriteContext,
  before: FreezeRow | null,
  after: FreezeRow,
): Promise<void> {
  journalChange(trx, context, {
    facilityId: after.facility_id,
    resourceType: 'freeze',
    resourceId: after.id,
    action: before === null ? 'create' : 'update',
    before,
    after,
  });
}
