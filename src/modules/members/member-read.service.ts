import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { PageRead } from '../../db/page-rows.js';
import { inWriteTransaction } from '../../journal/journal.js';
import { readPolicySettings, todayIn } from '../policy/policy.service.js';
import { settleMember } from '../schedule/schedule.service.js';
import { findDueMemberIds, findMemberById, type MemberRecord } from './member.repository.js';
import { allowedTransitions } from './member.rules.js';
import type { Member } from './member.schemas.js';
import { listMembers, type MemberFilter } from './member-list.repository.js';
import './member.problems.js';
import './member.events.js';

type LifecyclePolicy = Parameters<typeof allowedTransitions>[1];

/** A stored member as the API shows it: with what it may do next, without the schedule's column. */
export function presentMember(record: MemberRecord, policy: LifecyclePolicy): Member {
  const { next_change_on: _scheduleOnly, ...member } = record;
  return { ...member, allowed_transitions: allowedTransitions(record, policy) };
}

/**
 * One member. When a scheduled change of it is due (its `next_change_on` is
 * today or earlier in the facility's time zone) and the sweeper has not made
 * it yet, the read makes it first: no reader sees a member frozen a day late.
 */
export async function getMember(db: Db, facilityId: number, memberId: number, now: Date): Promise<Member> {
  // Read together: on PostgreSQL each joins the batch of reads of its kind (src/db/point-read.ts).
  let [member, policy] = await Promise.all([
    findMemberById(db, facilityId, memberId),
    readPolicySettings(db, facilityId),
  ]);
  if (!member) throw memberNotFound(facilityId, memberId);
  if (member.next_change_on !== null && member.next_change_on <= todayIn(policy.timezone, now)) {
    member = (await settleDueMember(db, facilityId, memberId, now)).member;
  }
  return presentMember(member, policy);
}

/** Lists members after settling the facility's due ones, so that status filters see the due state. */
export async function listMembersOfFacility(
  db: Db,
  facilityId: number,
  filter: Omit<MemberFilter, 'afterId' | 'limit' | 'maxBytes'>,
  page: PageRead,
  now: Date,
): Promise<Member[]> {
  const policy = await readPolicySettings(db, facilityId);
  const due = await findDueMemberIds(db, facilityId, todayIn(policy.timezone, now));
  for (const memberId of due) await settleDueMember(db, facilityId, memberId, now).catch(ignoreGone);
  const records = await listMembers(db, facilityId, {
    ...filter,
    afterId: page.afterId,
    limit: page.rows,
    maxBytes: page.maxBytes,
  });
  // In place, not copied twice as presentMember does: the page's serializer writes the schema's fields only,
  // so the schedule's column stays unsent (a page of 100 allocated 200 objects for it).
  return records.map((record) =>
    Object.assign(record, { allowed_transitions: allowedTransitions(record, policy) }),
  );
}

/**
 * Applies what is due for one member in its own transaction, the member
 * locked: of several readers and sweepers that try at once, one changes it
 * (`changed`) and the others find nothing due.
 */
export async function settleDueMember(db: Db, facilityId: number, memberId: number, now: Date) {
  return inWriteTransaction(db, async (trx) => {
    const locked = await findMemberById(trx, facilityId, memberId, { lock: true });
    if (!locked) throw memberNotFound(facilityId, memberId);
    const policy = await readPolicySettings(trx, facilityId);
    const member = await settleMember(trx, locked, policy.timezone, now);
    return { member, changed: member !== locked };
  });
}

/** A member hard-deleted between the read of due ids and its settling has nothing left to settle. */
function ignoreGone(error: unknown): void {
  if (!(error instanceof AppError && error.code === 'member_not_found')) throw error;
}

export function memberNotFound(facilityId: number, memberId: number): AppError {
  return new AppError('member_not_found', `Facility ${facilityId} has no member with id ${memberId}`);
}
