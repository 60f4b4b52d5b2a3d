import { changedFields } from '../../core/changes.js';
import { AppError } from '../../core/errors.js';
import { assertIfMatch, etagOf, writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation, isUniqueViolationOf } from '../../db/errors.js';
import type { PageRead } from '../../db/page-rows.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { findPlanById } from '../plans/plan.repository.js';
import { readPolicySettings, todayIn } from '../policy/policy.service.js';
import {
  countSeatsTaken,
  deleteMemberById,
  findMemberById,
  insertMember,
  type MemberValues,
  updateMember,
} from './member.repository.js';
import { assertDateOfBirth, assertStatusMove, holdsSeat } from './member.rules.js';
import { type Member, type MemberCreate, type MemberPatch, memberRepresentation } from './member.schemas.js';
import { listMembers, type MemberFilter } from './member-list.repository.js';

export async function getMember(db: Executor, facilityId: number, memberId: number): Promise<Member> {
  const member = await findMemberById(db, facilityId, memberId);
  if (!member) throw memberNotFound(facilityId, memberId);
  return member;
}

/** The member, locked for the rest of the transaction: writes decide from its current state. */
async function getMemberForWrite(trx: Executor, facilityId: number, memberId: number): Promise<Member> {
  const member = await findMemberById(trx, facilityId, memberId, { lock: true });
  if (!member) throw memberNotFound(facilityId, memberId);
  return member;
}

export async function listMembersOfFacility(
  db: Executor,
  facilityId: number,
  filter: Omit<MemberFilter, 'afterId' | 'limit' | 'maxBytes'>,
  page: PageRead,
): Promise<Member[]> {
  return listMembers(db, facilityId, {
    ...filter,
    afterId: page.afterId,
    limit: page.rows,
    maxBytes: page.maxBytes,
  });
}

export async function createMember(
  db: Db,
  context: WriteContext<Member>,
  facilityId: number,
  body: MemberCreate,
): Promise<Member> {
  return db.transaction().execute((trx) => createMemberIn(trx, context, facilityId, body));
}

/** A create inside the caller's transaction: POST and each created row of a CSV import. */
export async function createMemberIn(
  trx: Executor,
  context: WriteContext<Member>,
  facilityId: number,
  body: MemberCreate,
): Promise<Member> {
  const policy = await readPolicySettings(trx, facilityId);
  const today = todayIn(policy.timezone);
  const now = new Date().toISOString();
  const values: MemberValues = {
    first_name: body.first_name,
    last_name: body.last_name ?? null,
    email: body.email ?? null,
    phone: body.phone ?? null,
    date_of_birth: body.date_of_birth ?? null,
    sport_id: body.sport_id ?? null,
    role: body.role ?? 'member',
    status: body.status ?? 'active',
    plan_id: body.plan_id ?? null,
    joined_on: body.joined_on ?? today,
    notes: body.notes ?? null,
    external_id: body.external_id ?? null,
    status_changed_at: now,
    deleted_at: null,
  };
  if (values.date_of_birth !== null) assertDateOfBirth(values.date_of_birth, today, policy.min_member_age);
  if (values.plan_id !== null) await assertPlanUsable(trx, facilityId, values.plan_id);
  if (holdsSeat(values)) await assertSeatFree(trx, facilityId, values.plan_id as number);
  const member = await insertMember(trx, facilityId, values, now).catch(
    rethrowConstraintViolation(facilityId, values),
  );
  await recordAuditEvent(trx, context, {
    facilityId,
    resourceType: 'member',
    resourceId: member.id,
    action: 'create',
    before: null,
    after: member,
  });
  await context.onCreated?.(trx, member);
  return member;
}

/**
 * PATCH changes only the fields sent. Status moves follow the status table;
 * moving a removed member to pending or active restores it. Taking a seat of a
 * plan (new plan, or leaving cancelled/removed) checks the plan's capacity.
 */
export async function patchMember(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  patch: MemberPatch,
): Promise<Member> {
  return db.transaction().execute((trx) => patchMemberIn(trx, context, facilityId, memberId, patch));
}

/** A PATCH inside the caller's transaction: the route's and each updated row of a CSV import. */
export async function patchMemberIn(
  trx: Executor,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  patch: MemberPatch,
): Promise<Member> {
  const current = await getMemberForWrite(trx, facilityId, memberId);
  assertIfMatch(context.ifMatch, etagOf(memberRepresentation, current.updated_at));
  const changes = changedFields(current, patch);
  if (!changes) return current;

  const next = { ...current, ...changes };
  // The policy matters only to status moves (freezing) and birth dates (age, today).
  if (changes.status !== undefined || changes.date_of_birth) {
    const policy = await readPolicySettings(trx, facilityId);
    if (changes.status !== undefined) assertStatusMove(current.status, changes.status, policy.allow_freeze);
    if (changes.date_of_birth) {
      assertDateOfBirth(changes.date_of_birth, todayIn(policy.timezone), policy.min_member_age);
    }
  }
  // Joining a plan, or coming back to one (cancelled → active), needs a plan open to members.
  const takesSeat = holdsSeat(next) && (!holdsSeat(current) || current.plan_id !== next.plan_id);
  if (next.plan_id !== null && (changes.plan_id !== undefined || takesSeat)) {
    await assertPlanUsable(trx, facilityId, next.plan_id);
  }
  if (takesSeat) await assertSeatFree(trx, facilityId, next.plan_id as number);

  const now = writeTimeAfter(current.updated_at);
  const write: Partial<MemberValues> = { ...changes };
  if (changes.status !== undefined) {
    write.status_changed_at = now;
    if (current.status === 'removed') write.deleted_at = null;
  }
  const updated = await updateMember(trx, memberId, write, now).catch(
    rethrowConstraintViolation(facilityId, next),
  );
  await recordAuditEvent(trx, context, {
    facilityId,
    resourceType: 'member',
    resourceId: memberId,
    action: current.status === 'removed' && changes.status !== undefined ? 'restore' : 'update',
    before: current,
    after: updated,
  });
  return updated;
}

/** Soft delete marks the member removed (once); hard delete erases the row. */
export async function deleteMember(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  hard: boolean,
) {
  await db.transaction().execute(async (trx) => {
    const member = await getMemberForWrite(trx, facilityId, memberId);
    assertIfMatch(context.ifMatch, etagOf(memberRepresentation, member.updated_at));
    const audit = { facilityId, resourceType: 'member', resourceId: memberId, before: member } as const;
    if (hard) {
      await deleteMemberById(trx, memberId);
      await recordAuditEvent(trx, context, { ...audit, action: 'hard_delete', after: null });
      return;
    }
    if (member.status === 'removed') return;
    const now = writeTimeAfter(member.updated_at);
    const fields = { status: 'removed', status_changed_at: now, deleted_at: now } as const;
    const removed = await updateMember(trx, memberId, fields, now);
    await recordAuditEvent(trx, context, { ...audit, action: 'delete', after: removed });
  });
}

async function assertPlanUsable(trx: Executor, facilityId: number, planId: number): Promise<void> {
  const plan = await findPlanById(trx, facilityId, planId);
  if (!plan?.is_active || plan.deleted_at !== null) {
    throw new AppError(
      'invalid_plan',
      plan ? `Plan ${planId} is not active` : `Facility ${facilityId} has no plan with id ${planId}`,
    );
  }
}

/** Locks the plan row (PostgreSQL) so concurrent sign-ups are counted one after another. */
async function assertSeatFree(trx: Executor, facilityId: number, planId: number): Promise<void> {
  const plan = await findPlanById(trx, facilityId, planId, { lock: true });
  if (!plan || plan.max_members === null) return;
  if ((await countSeatsTaken(trx, planId)) >= plan.max_members) {
    throw new AppError('plan_full', `Plan ${planId} already has its maximum of ${plan.max_members} members`);
  }
}

/**
 * The database's own answer to a member write: a unique violation is an
 * email taken meanwhile; a foreign key violation is a plan hard-deleted after
 * assertPlanUsable read it (that read takes no lock), which the member may
 * no longer join.
 */
function rethrowConstraintViolation(
  facilityId: number,
  member: Pick<MemberValues, 'email' | 'plan_id' | 'external_id'>,
) {
  return (error: unknown): never => {
    if (isUniqueViolationOf(error, 'external_id')) {
      throw new AppError(
        'member_external_id_conflict',
        `A member with external_id ${member.external_id} already exists in this facility`,
      );
    }
    if (isUniqueViolation(error)) {
      throw new AppError(
        'member_email_conflict',
        `A member with email ${member.email} already exists in this facility`,
      );
    }
    if (isForeignKeyViolation(error) && member.plan_id !== null) {
      throw new AppError('invalid_plan', `Facility ${facilityId} has no plan with id ${member.plan_id}`);
    }
    throw error;
  };
}

function memberNotFound(facilityId: number, memberId: number): AppError {
  return new AppError('member_not_found', `Facility ${facilityId} has no member with id ${memberId}`);
}
