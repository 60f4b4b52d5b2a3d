import { daysBetweenInclusive, earlierOf, laterOf } from '../../core/dates.js';
import { AppError, invalidField } from '../../core/errors.js';
import type { FreezeRow } from './freeze.repository.js';
import './freeze.problems.js';

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

export function assertFreezeCount(freezes: readonly FreezeRow[]): void {
  if (freezes.length >= MAX_FREEZES_PER_MEMBER) {
    throw new AppError(
      'freeze_limit_exceeded',
      `A member has at most ${MAX_FREEZES_PER_MEMBER} freezes, cancelled ones included`,
    );
  }
}

/** A freeze's days: `ends_on` null is an open-ended freeze, counted to `today`. */
export interface FreezeSpan {
  starts_on: string;
  ends_on: string | null;
}

/** Freezes that count (toward the yearly limit, against overlaps): all but the cancelled ones. */
export const countsAsFrozen = (freeze: FreezeRow) => freeze.state !== 'cancelled';

function lastDayOf(span: FreezeSpan, today: string): string {
  return span.ends_on ?? laterOf(today, span.starts_on);
}

/** Days of the span that fall in the calendar year. */
function daysInYear(span: FreezeSpan, year: number, today: string): number {
  const from = laterOf(span.starts_on, `${year}-01-01`);
  const to = earlierOf(lastDayOf(span, today), `${year}-12-31`);
  return daysBetweenInclusive(from, to);
}

/**
 * 409 `freeze_overlap` when the new span shares a day with a freeze that
 * counts; an open-ended freeze reaches every day from its start.
 */
export function assertNoOverlap(span: FreezeSpan, freezes: readonly FreezeRow[]): void {
  for (const other of freezes.filter(countsAsFrozen)) {
    const startsBeforeOtherEnds = other.ends_on === null || span.starts_on <= other.ends_on;
    const endsAfterOtherStarts = span.ends_on === null || span.ends_on >= other.starts_on;
    if (startsBeforeOtherEnds && endsAfterOtherStarts) {
      throw new AppError(
        'freeze_overlap',
        `The freeze overlaps freeze ${other.id} (${other.starts_on} to ${other.ends_on ?? 'open-ended'})`,
      );
    }
  }
}

/**
 * 422 `freeze_limit_exceeded` when, in any calendar year the new span
 * touches, the days frozen (past, current and planned freezes; open-ended
 * ones to today) and the new ones together exceed the policy's yearly limit.
 */
export function assertWithinYearlyLimit(
  span: FreezeSpan,
  freezes: readonly FreezeRow[],
  today: string,
  maxDaysPerYear: number,
): void {
  const firstYear = Number(span.starts_on.slice(0, 4));
  const lastYear = Number(lastDayOf(span, today).slice(0, 4));
  for (let year = firstYear; year <= lastYear; year++) {
    const used = freezes.filter(countsAsFrozen).reduce((sum, f) => sum + daysInYear(f, year, today), 0);
    const asked = daysInYear(span, year, today);
    if (used + asked > maxDaysPerYear) {
      const left = Math.max(0, maxDaysPerYear - used);
      throw new AppError(
        'freeze_limit_exceeded',
        `The freeze would take ${asked} day${asked === 1 ? '' : 's'} in ${year}, but only ${left} of the ` +
          `policy's ${maxDaysPerYear} freeze days per year are left`,
      );
    }
  }
}
