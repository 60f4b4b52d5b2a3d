import { AppError, invalidField } from '../../http/errors.js';
import type { MemberStatus } from './member.schemas.js';

/** Where each status may move by PATCH. `removed` is reached only by DELETE. */
const STATUS_MOVES: Record<MemberStatus, readonly MemberStatus[]> = {
  pending: ['active', 'cancelled'],
  active: ['frozen', 'suspended', 'cancelled'],
  frozen: ['active', 'cancelled'],
  suspended: ['active', 'cancelled'],
  cancelled: ['active'],
  removed: ['pending', 'active'],
};

/** The status table as the OpenAPI description of `status` shows it, made from the rules themselves. */
export function statusMovesDescription(): string {
  const rows = Object.entries(STATUS_MOVES).map(([from, to]) => `| ${from} | ${to.join(', ')} |`);
  return [
    'Moves by PATCH (the same status again changes nothing):',
    '',
    '| from | to |',
    '|---|---|',
    ...rows,
    '',
    "Any other move is 409 `invalid_status_transition`. To `frozen` while the policy's `allow_freeze` is " +
      'false is 409 `freeze_not_allowed`. `removed` is reached only by DELETE; a PATCH from `removed` ' +
      'restores the member and clears `deleted_at`.',
  ].join('\n');
}

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
