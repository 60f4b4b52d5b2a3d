import { AppError, invalidField } from '../../core/errors.js';
import { type MemberStatus, STATUS_MOVES } from './member-status.js';
import './member.problems.js';
import '../freezes/freeze.problems.js';

export function assertStatusMove(from: MemberStatus, to: MemberStatus, allowFreeze: boolean): void {
  if (from === to) return;
  if (!STATUS_MOVES[from].includes(to)) {
    const allowed = STATUS_MOVES[from].join(', ');
    throw new AppError(
      'invalid_status_transition',
      to === 'removed'
        ? 'A member is removed only by DELETE'
        : `A member cannot move from ${from} to ${to}; from ${from} it can move to: ${allowed}`,
    );
  }
  if (to === 'frozen' && !allowFreeze) {
    throw new AppError('freeze_not_allowed', "This facility's policy does not allow freezing memberships");
  }
}

/** A member holds a seat of its plan unless cancelled or removed (counts toward max_members). */
export function holdsSeat(member: { status: string; plan_id: number | null }): boolean {
  return member.plan_id !== null && member.status !== 'cancelled' && member.status !== 'removed';
}

/** Date of birth must not be in the future nor make the member younger than the policy allows. */
export function assertDateOfBirth(dateOfBirth: string, today: string, minAge: number): void {
  if (dateOfBirth > today) throw invalidField('body', '/date_of_birth', 'must not be in the future');
  if (minAge > 0 && ageOn(dateOfBirth, today) < minAge) {
    throw new AppError('member_too_young', `Members of this facility must be at least ${minAge} years old`);
  }
}

function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

interface LifecyclePolicy {
  allow_freeze: boolean;
  require_waiver: boolean;
}

/** Whether the policy lets the member become active: with require_waiver, only with a signed waiver. */
function waiverAllowsActive(member: { waiver_signed_at: string | null }, policy: LifecyclePolicy): boolean {
  return !policy.require_waiver || member.waiver_signed_at !== null;
}

/** The statuses a PATCH may move the member to now, given the status table and the policy. */
export function allowedTransitions(
  member: { status: MemberStatus; waiver_signed_at: string | null },
  policy: LifecyclePolicy,
): MemberStatus[] {
  return STATUS_MOVES[member.status].filter(
    (to) =>
      !(to === 'frozen' && !policy.allow_freeze) && !(to === 'active' && !waiverAllowsActive(member, policy)),
  );
}

/** Becoming active (a create, a status move, a restore) needs a signed waiver when the policy requires one. */
export function assertWaiverForActive(
  member: { status: string; waiver_signed_at: string | null },
  policy: LifecyclePolicy,
): void {
  if (member.status === 'active' && !waiverAllowsActive(member, policy)) {
    throw new AppError(
      'waiver_required',
      "This facility's policy requires a signed waiver: set waiver_signed_at before the member becomes active",
    );
  }
}

/** The last day of a membership is not before its first. */
export function assertEndsOn(member: { joined_on: string; ends_on: string | null }): void {
  if (member.ends_on !== null && member.ends_on < member.joined_on) {
    throw invalidField('body', '/ends_on', `must not be before joined_on (${member.joined_on})`);
  }
}
