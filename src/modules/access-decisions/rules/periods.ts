import type { Weekday } from '../../policy/policy-door.schemas.js';

export type PeriodKind = 'day' | 'week' | 'month';

/** A period of the facility's calendar: from its first instant, up to (not including) `endsAt`. */
export interface Period {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The day, week (starting on `weekStartsOn`) or month that `at` falls in,
 * in the time zone `timeZone`, as instants: local midnights, correct across
 * DST changes (a day can be 23 or 25 hours long).
 *
 * STUB (issue 40 foundation): the door-policy helper implements it.
 */
export function periodOf(kind: PeriodKind, at: Date, timeZone: string, weekStartsOn: Weekday): Period {
  throw new Error(
    `periodOf(${kind}, ${at.toISOString()}, ${timeZone}, ${weekStartsOn}): not implemented yet`,
  );
}
