import { addDays, todayIn } from '../../../core/dates.js';
import { instantOfLocal } from '../../../core/local-time.js';
import { WEEKDAYS, type Weekday } from '../../policy/policy-door.schemas.js';

export type PeriodKind = 'day' | 'week' | 'month';

/** A period of the facility's calendar: from its first instant, up to (not including) `endsAt`. */
export interface Period {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The day, week (starting on `weekStartsOn`) or month that `at` falls in,
 * in the time zone `timeZone`, as instants: local midnights, correct across
 * DST changes (a day can be 23 or 25 hours long). A midnight the clock skips
 * starts its day when the clock jumps (src/core/local-time.ts).
 */
export function periodOf(kind: PeriodKind, at: Date, timeZone: string, weekStartsOn: Weekday): Period {
  const today = todayIn(timeZone, at);
  const [first, next] = datesOf(kind, today, weekStartsOn);
  return {
    startsAt: instantOfLocal(timeZone, first, '00:00'),
    endsAt: instantOfLocal(timeZone, next, '00:00'),
  };
}

/** The period's first date and the first date of the next one. */
function datesOf(kind: PeriodKind, date: string, weekStartsOn: Weekday): [string, string] {
  if (kind === 'day') return [date, addDays(date, 1)];
  if (kind === 'week') {
    const back = (WEEKDAYS.indexOf(weekdayOf(date)) - WEEKDAYS.indexOf(weekStartsOn) + 7) % 7;
    const first = addDays(date, -back);
    return [first, addDays(first, 7)];
  }
  const first = `${date.slice(0, 8)}01`;
  return [first, `${addDays(first, 32).slice(0, 8)}01`];
}

/** The weekday of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7] ?? 'monday';
}
