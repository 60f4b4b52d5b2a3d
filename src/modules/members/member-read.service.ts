import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { PageRead } from '../../db/page-rows.js';
import { readPolicySettings } from '../policy/policy.service.js';
import { findMemberById, type MemberRecord } from './member.repository.js';
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
 * One member, as stored. A read changes nothing: what the schedule has due
 * (a freeze starting or ending, a term ending) is applied by the schedule
 * job, within a minute after the facility's midnight (member-schedule.job.ts).
 */
export async function getMember(db: Db, facilityId: number, memberId: number): Promise<Member> {
  // Read together: on PostgreSQL each joins the batch of reads of its kind (src/db/point-read.ts).
  const [member, policy] = await Promise.all([
    findMemberById(db, facilityId, memberId),
    readPolicySettings(db, facilityId),
  ]);
  if (!member) throw memberNotFound(facilityId, memberId);
  return presentMember(member, policy);
}

/** A page of the facility's members, as stored (getMember says why). */
export async function listMembersOfFacility(
  db: Db,
  facilityId: number,
  filter: Omit<MemberFilter, 'afterId' | 'limit' | 'maxBytes'>,
  page: PageRead,
): Promise<Member[]> {
  const policy = await readPolicySettings(db, facilityId);
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

export function memberNotFound(facilityId: number, memberId: number): AppError {
  return new AppError('member_not_found', `Facility ${facilityId} has no member with id ${memberId}`);
}
