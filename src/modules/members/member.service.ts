import { changedFields } from '../../core/changes.js';
import { addDays, todayIn } from '../../core/dates.js';
import { invalidField } from '../../core/errors.js';
import { etagOf, writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { journalChange } from '../../journal/journal.js';
import {
  changeIn,
  type Write,
  type WriteTarget,
  write,
  writeIn,
  writeNew,
} from '../../journal/write-path.js';
import { endFreezeOfStatusMove, openFreezeOfStatusMove } from '../freezes/freeze.service.js';
import { type PolicySettings, readPolicySettings } from '../policy/policy.service.js';
import {
  findMemberById,
  insertMember,
  type MemberRecord,
  type MemberValues,
  updateMember,
} from './member.repository.js';
import {
  assertDateOfBirth,
  assertEndsOn,
  assertStatusMove,
  assertWaiverForActive,
  holdsSeat,
} from './member.rules.js';
import { type Member, type MemberCreate, type MemberUpdate, memberRepresentation } from './member.schemas.js';
import { assertPlanUsable, assertSeatFree, rethrowConstraintViolation } from './member-plan-seats.js';
import { memberNotFound, presentMember } from './member-read.service.js';
import { lockSettledMember, settleMember } from './member-schedule.service.js';
import './member.events.js';

/**
 * The member a write changes: locked for the rest of the transaction (writes
 * decide from its current state), 404 member_not_found, If-Match against its
 * representation. With the facility's time zone, a change that is due is
 * made first: the write decides from the state the schedule job would have
 * stored (docs/decisions.md, "Reads never write").
 */
export function memberTarget(
  facilityId: number,
  memberId: number,
  settleIn?: { timeZone: string; now: Date },
): WriteTarget<MemberRecord> {
  return {
    lock: (trx) =>
      settleIn
        ? lockSettledMember(trx, facilityId, memberId, settleIn.timeZone, settleIn.now)
        : findMemberById(trx, facilityId, memberId, { lock: true }),
    notFound: () => memberNotFound(facilityId, memberId),
    etag: (member) => etagOf(memberRepresentation, member.updated_at),
  };
}

export async function createMember(
  db: Db,
  context: WriteContext<Member>,
  facilityId: number,
  body: MemberCreate,
): Promise<Member> {
  // Read in the transaction, not before it as a batched point read: on SQLite a read outside it waits for
  // the group commit under way and breaks up the groups (docs/performance-log.md).
  return writeNew(db, context, async ({ trx }) =>
    createMemberIn(trx, context, facilityId, body, await readPolicySettings(trx, facilityId)),
  );
}

/**
 * A create inside the caller's transaction: POST and each created row of a
 * CSV import, with the facility's policy the caller read.
 */
export async function createMemberIn(
  trx: Executor,
  context: WriteContext<Member>,
  facilityId: number,
  body: MemberCreate,
  policy: PolicySettings,
): Promise<Member> {
  const clock = context.now;
  const today = todayIn(policy.timezone, clock);
  const now = clock.toISOString();
  const values: MemberValues = {
    first_name: body.first_name,
    last_name: body.last_name ?? null,
    email: body.email ?? null,
    phone: body.phone ?? null,
    date_of_birth: body.date_of_birth ?? null,
    sport_id: body.sport_id ?? null,
    role: body.role ?? 'member',
    status: body.status ?? 'active',
    status_reason: null,
    plan_id: body.plan_id ?? null,
    joined_on: body.joined_on ?? today,
    ends_on: body.ends_on ?? null,
    notes: body.notes ?? null,
    external_id: body.external_id ?? null,
    waiver_signed_at: body.waiver_signed_at ?? null,
    status_changed_at: now,
    deleted_at: null,
    next_change_on: null,
  };
  if (values.date_of_birth !== null) assertDateOfBirth(values.date_of_birth, today, policy.min_member_age);
  assertWaiverForActive(values, policy);
  if (values.plan_id !== null) {
    const plan = await assertPlanUsable(trx, facilityId, values.plan_id);
    // A fixed-term plan gives the membership its last day, unless the body names one (null too).
    if (body.ends_on === undefined && plan.duration_days !== null) {
      values.ends_on = addDays(values.joined_on, plan.duration_days - 1);
    }
  }
  assertEndsOn(values);
  if (holdsSeat(values)) await assertSeatFree(trx, context, facilityId, values.plan_id as number);
  const inserted = await insertMember(trx, facilityId, values, now).catch(
    rethrowConstraintViolation(facilityId, values),
  );
  journalChange(trx, context, {
    facilityId,
    resourceType: 'member',
    resourceId: inserted.id,
    action: 'create',
    before: null,
    after: inserted,
  });
  // A new member has no freezes: only a term can put something on its schedule.
  const settled =
    inserted.ends_on === null ? inserted : await settleMember(trx, inserted, policy.timezone, clock);
  return presentMember(settled, policy);
}

/**
 * PATCH changes only the fields sent. Status moves follow the status table;
 * moving a removed member to pending or active restores it. Taking a seat of a
 * plan (new plan, or leaving cancelled/removed) checks the plan's capacity.
 * A move to frozen opens an open-ended freeze, a move from frozen ends the
 * freeze under way; a move without `status_reason` clears it.
 */
export async function patchMember(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  patch: MemberUpdate,
): Promise<Member> {
  return write(db, context, ({ trx }) => patchMemberIn(trx, context, facilityId, memberId, patch));
}

/** A PATCH inside the caller's transaction: the route's and each updated row of a CSV import. */
export async function patchMemberIn(
  trx: Executor,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  patch: MemberUpdate,
): Promise<Member> {
  if (patch.status_reason !== undefined && patch.status === undefined) {
    throw invalidField('body', '/status_reason', 'is given only with status');
  }
  const policy = await readPolicySettings(trx, facilityId);
  const target = memberTarget(facilityId, memberId, { timeZone: policy.timezone, now: context.now });
  return changeIn(writeIn(trx, context), target, (write, current) =>
    changeMember(write, facilityId, current, patch, policy),
  );
}

/** What a PATCH changes of a member, locked and settled, once its If-Match held. */
async function changeMember(
  { trx, context, now: clock, record }: Write,
  facilityId: number,
  current: MemberRecord,
  patch: MemberUpdate,
  policy: PolicySettings,
): Promise<Member> {
  const memberId = current.id;
  const today = todayIn(policy.timezone, clock);
  const moves = patch.status !== undefined && patch.status !== current.status;
  const changes = changedFields(current, moves ? { status_reason: null, ...patch } : patch);
  if (!changes) return presentMember(current, policy);

  const next = { ...current, ...changes };
  if (changes.status !== undefined) {
    assertStatusMove(current.status, changes.status, policy.allow_freeze);
    assertWaiverForActive(next, policy);
  }
  if (changes.date_of_birth) assertDateOfBirth(changes.date_of_birth, today, policy.min_member_age);
  if (changes.ends_on !== undefined || changes.joined_on !== undefined) assertEndsOn(next);
  // Joining a plan, or coming back to one (cancelled → active), needs a plan open to members.
  const takesSeat = holdsSeat(next) && (!holdsSeat(current) || current.plan_id !== next.plan_id);
  if (next.plan_id !== null && (changes.plan_id !== undefined || takesSeat)) {
    await assertPlanUsable(trx, facilityId, next.plan_id);
  }
  if (takesSeat) await assertSeatFree(trx, context, facilityId, next.plan_id as number);
  if (changes.status === 'frozen') {
    await openFreezeOfStatusMove(trx, context, current, today, policy.max_freeze_days_per_year);
  } else if (changes.status !== undefined && current.status === 'frozen') {
    await endFreezeOfStatusMove(trx, context, memberId, today);
  }

  const now = writeTimeAfter(current.updated_at, clock.getTime());
  const write: Partial<MemberValues> = { ...changes };
  if (changes.status !== undefined) {
    write.status_changed_at = now;
    if (current.status === 'removed') write.deleted_at = null;
  }
  const updated = await updateMember(trx, memberId, write, now).catch(
    rethrowConstraintViolation(facilityId, next),
  );
  record({
    facilityId,
    resourceType: 'member',
    resourceId: memberId,
    action: current.status === 'removed' && changes.status !== undefined ? 'restore' : 'update',
    before: current,
    after: updated,
  });
  const scheduleMoved = changes.status !== undefined || changes.ends_on !== undefined;
  return presentMember(
    scheduleMoved ? await settleMember(trx, updated, policy.timezone, clock) : updated,
    policy,
  );
}
