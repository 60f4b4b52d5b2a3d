import { AppError, invalidField } from '../../core/errors.js';
import { type MemberStatus, STATUS_MOVES } from './member-status.js';

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
