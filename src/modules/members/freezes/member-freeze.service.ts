import { todayIn } from '../../../core/dates.js';
import { AppError } from '../../../core/errors.js';
import type { WriteContext } from '../../../core/write-context.js';
import type { Db } from '../../../db/database.js';
import type { PageRead } from '../../../db/page-rows.js';
import { type WriteTarget, writeExisting } from '../../../journal/write-path.js';
import {
  assertFreezeCount,
  assertFreezeDates,
  assertNoOverlap,
  assertWithinYearlyLimit,
} from '../../freezes/freeze.rules.js';
import {
  addFreeze,
  changeFreeze,
  type FreezeRow,
  listFreezesOfMember,
  listFreezesPage,
} from '../../freezes/freeze.service.js';
import { type PolicySettings, readPolicySettings } from '../../policy/policy.service.js';
import { findMemberById, type MemberRecord } from '../member.repository.js';
import { memberNotFound } from '../member-read.service.js';
import { lockSettledMember, settleMember } from '../member-schedule.service.js';
import type { FreezeCreate } from './freeze.schemas.js';
import '../member.problems.js';

/**
 * What a write of a member's freezes changes: the member, locked, with what
 * is due already applied, and the facility's policy and today. A freeze has
 * no ETag of its own: If-Match does not apply.
 */
function freezesOf(facilityId: number, memberId: number, now: Date): WriteTarget<SettledMemberOfFreezes> {
  return {
    lock: async (trx) => {
      const policy = await readPolicySettings(trx, facilityId);
      const member = await lockSettledMember(trx, facilityId, memberId, policy.timezone, now);
      return member && { member, policy, today: todayIn(policy.timezone, now) };
    },
    notFound: () => memberNotFound(facilityId, memberId),
  };
}

interface SettledMemberOfFreezes {
  member: MemberRecord;
  policy: PolicySettings;
  today: string;
}

/** Only an active or frozen member can be frozen. */
function assertMemberFreezable(status: string): void {
  if (status !== 'active' && status !== 'frozen') {
    throw new AppError(
      'invalid_status_transition',
      `A ${status} member cannot be frozen; only active or frozen members can`,
    );
  }
}

/**
 * Plans a freeze. The dates are checked first (400), then the policy
 * (`allow_freeze`), the member's status, overlaps with the member's other
 * freezes and the yearly limit. A freeze that starts today freezes the
 * member at once.
 */
export async function createFreeze(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  body: FreezeCreate,
): Promise<FreezeRow> {
  const target = freezesOf(facilityId, memberId, context.now);
  return writeExisting(db, context, target, async ({ trx, now }, { member, policy, today }) => {
    assertFreezeDates(body, today);
    if (!policy.allow_freeze) {
      throw new AppError('freeze_not_allowed', "This facility's policy does not allow freezing memberships");
    }
    assertMemberFreezable(member.status);
    const freezes = await listFreezesOfMember(trx, memberId);
    assertFreezeCount(freezes);
    const span = { starts_on: body.starts_on, ends_on: body.ends_on };
    assertNoOverlap(span, freezes);
    assertWithinYearlyLimit(span, freezes, today, policy.max_freeze_days_per_year);
    const freeze = await addFreeze(trx, context, {
      facility_id: facilityId,
      member_id: memberId,
      ...span,
      reason: body.reason ?? null,
      state: 'scheduled',
      created_at: now.toISOString(),
    });
    await settleMember(trx, member, policy.timezone, now);
    return freeze;
  });
}

/** A member's freezes by id, as stored (a read changes nothing: member-read.service.ts). */
export async function listFreezesOfMemberPage(
  db: Db,
  facilityId: number,
  memberId: number,
  page: PageRead,
): Promise<FreezeRow[]> {
  if (!(await findMemberById(db, facilityId, memberId))) throw memberNotFound(facilityId, memberId);
  return listFreezesPage(db, memberId, page.afterId, page.rows);
}

/**
 * Cancels a freeze: a planned one never starts; one under way ends today
 * (the member is active again tomorrow; a PATCH to `active` returns it at
 * once). Cancelling again changes nothing; a freeze that has ended is 409.
 */
export async function cancelFreeze(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  freezeId: number,
): Promise<void> {
  const target = freezesOf(facilityId, memberId, context.now);
  await writeExisting(db, context, target, async ({ trx, now }, { member, policy, today }) => {
    const freeze = (await listFreezesOfMember(trx, memberId)).find((f) => f.id === freezeId);
    if (!freeze) {
      throw new AppError('freeze_not_found', `Member ${memberId} has no freeze with id ${freezeId}`);
    }
    if (freeze.cancelled_at !== null) return;
    if (freeze.state === 'ended') {
      throw new AppError(
        'invalid_status_transition',
        `Freeze ${freezeId} already ended on ${freeze.ends_on}; only a planned freeze or one under way can be cancelled`,
      );
    }
    const cancelled: FreezeRow = { ...freeze, cancelled_at: now.toISOString() };
    if (freeze.state === 'scheduled') cancelled.state = 'cancelled';
    else if (freeze.ends_on === null || freeze.ends_on > today) cancelled.ends_on = today;
    await changeFreeze(trx, context, freeze, cancelled);
    await settleMember(trx, member, policy.timezone, now);
  });
}
