import { AppError, invalidField } from '../../core/errors.js';
import type { FreezeRow } from '../schedule/schedule.repository.js';
import '../members/member.problems.js';
import '../schedule/freeze.problems.js';

/** Freezes a member may have, cancelled ones included: each POST stores one. */
export const MAX_FREEZES_PER_MEMBER = 100;

/** A planned freeze starts today or later (facility time zone) and ends on or after its start. */
export function assertFreezeDates(freeze: { starts_on: string; ends_on: string }, today: string): void {
  if (freeze.starts_on < today) {
    throw invalidField('body', '/starts_on', `must not be in the past (today is ${today} in the facility)`);
  }
  if (freeze.ends_on < freeze.starts_on) {
    throw invalidField('body', '/ends_on', `must not be before starts_on (${freeze.starts_on})`);
  }
}

/** Only an active or frozen member can be frozen. */
export function assertMemberFreezable(status: string): void {
  if (status !== 'active' && status !== 'frozen') {
    throw new AppError(
      'invalid_status_transition',
      `A ${status} member cannot be frozen; only active or frozen members can`,
    );
  }
}

export function assertFreezeCount(freezes: readonly FreezeRow[]): void {
  if (freezes.length >= MAX_FREEZES_PER_MEMBER) {
    throw new AppError(
      'freeze_limit_exceeded',
      `A member has at most ${MAX_FREEZES_PER_MEMBER} freezes, cancelled ones included`,
    );
  }
}
