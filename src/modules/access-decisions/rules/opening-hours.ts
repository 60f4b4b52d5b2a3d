import { addDays, daysBetweenInclusive, todayIn } from '../../../core/dates.js';
import { instantOfLocal } from '../../../core/local-time.js';
import type { Policy } from '../../policy/policy.schemas.js';
import { WEEKDAYS } from '../../policy/policy-door.schemas.js';
import { weekdayOf } from './periods.js';

/** What the door's clock says at an instant, from the policy's opening hours and closures. */
export type Opening =
  | { open: true }
  /** `until`: the next instant it opens; null when it never opens again (no opening hours at all). */
  | { open: false; why: 'closed' | 'closure'; until: Date | null };

type Hours = Policy['opening_hours'];
type Closure = Policy['closures'][number];
interface Interval {
  opens: string;
  closes: string;
}

/** How far ahead the next opening is looked for: past it, `until` is null (never). */
export const OPENING_SEARCH_DAYS = 400;

/** `opening_hours` null: each day open from its midnight to the next. */
const ALL_DAY: Interval[] = [{ opens: '00:00', closes: '00:00' }];

/**
 * Whether the facility is open at `at`, in its time zone (`policy.timezone`):
 * `opening_hours` null is open at all hours; intervals whose `closes` is at
 * or before `opens` run past midnight into the next day (and belong to the
 * day they open on); a closure closes whole local days, from the midnight
 * that starts `starts_on` to the one that ends `ends_on`, cutting an interval
 * that runs into or out of them. Local times skipped or repeated by a DST
 * change are read as `instantOfLocal` reads them (src/core/local-time.ts).
 *
 * Closed: `why` is `closure` when today (local) is a closure day, else
 * `closed`; `until` is the next instant it opens, searched for
 * OPENING_SEARCH_DAYS ahead (null past that, or when no weekday has hours).
 */
export function openingAt(
  policy: Pick<Policy, 'timezone' | 'opening_hours' | 'closures'>,
  at: Date,
): Opening {
  const { timezone, opening_hours: hours } = policy;
  if (hours === null && policy.closures.length === 0) return { open: true };
  const closures = policy.closures;
  const today = todayIn(timezone, at);
  const why = closureOn(closures, today) ? 'closure' : 'closed';
  if (hours !== null && !WEEKDAYS.some((day) => (hours[day]?.length ?? 0) > 0)) {
    return { open: false, why, until: null };
  }
  const now = at.getTime();
  let next: number | undefined;
  // From yesterday, whose intervals may run past midnight into today.
  for (let day = -1; day <= OPENING_SEARCH_DAYS; day++) {
    const date = addDays(today, day);
    // Of closed days, only the last before an open one has intervals that can run past
    // the closures (into the next day): a long closure is skipped to its last day.
    const closure = closureOn(closures, date);
    if (closure !== undefined && closure.ends_on > date) {
      day += daysBetweenInclusive(date, closure.ends_on) - 2;
      continue;
    }
    if (closure !== undefined && closureOn(closures, addDays(date, 1)) !== undefined) continue;
    const intervals = intervalsOn(hours, date);
    for (const interval of intervals) {
      const opens = instantOfLocal(timezone, date, interval.opens).getTime();
      if (next !== undefined && opens >= next) return { open: false, why, until: new Date(next) };
      const closesOn = interval.closes > interval.opens ? date : addDays(date, 1);
      const closes = instantOfLocal(timezone, closesOn, interval.closes).getTime();
      const from = afterClosures(timezone, closures, Math.max(opens, now));
      if (from >= closes) continue;
      if (from === now) return { open: true };
      next = Math.min(next ?? from, from);
    }
  }
  return { open: false, why, until: next === undefined ? null : new Date(next) };
}

/** The day's intervals, earliest opening first. */
function intervalsOn(hours: Hours, date: string): Interval[] {
  if (hours === null) return ALL_DAY;
  const intervals = hours[weekdayOf(date)];
  return intervals ? [...intervals].sort((a, b) => (a.opens < b.opens ? -1 : 1)) : [];
}

function closureOn(closures: Closure[], date: string): Closure | undefined {
  return closures.find((closure) => closure.starts_on <= date && date <= closure.ends_on);
}

/** `instant`, or when it falls on a closure day, the midnight that ends the closure (and the ones it runs into). */
function afterClosures(timeZone: string, closures: Closure[], instant: number): number {
  const date = todayIn(timeZone, new Date(instant));
  let open = date;
  for (let closure = closureOn(closures, open); closure !== undefined; closure = closureOn(closures, open)) {
    open = addDays(closure.ends_on, 1);
  }
  return open === date ? instant : instantOfLocal(timeZone, open, '00:00').getTime();
}
