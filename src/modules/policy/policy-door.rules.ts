import { AppError, type FieldError } from '../../core/errors.js';
import type { PolicyUpdate } from './policy.schemas.js';
import { WEEKDAYS } from './policy-door.schemas.js';

const DAY_MINUTES = 24 * 60;
/** Problems named in the detail; `errors` lists them all (up to PROBLEM_MAX_ERRORS). */
const DETAIL_PROBLEMS = 10;

interface Interval {
  opens: string;
  closes: string;
}

/**
 * What the schema cannot say about the door fields of a PATCH: a closure
 * ends on or after the day it starts, and one weekday's intervals do not
 * overlap. An interval whose `closes` equals its `opens` is open 24 hours
 * (it closes at that time the next day), so it overlaps any other interval
 * of its weekday. Intervals of different weekdays may overlap (an overnight
 * interval running into the next day's first one): the facility is open
 * while either is. Every problem is listed, as the schema's are.
 */
export function assertDoorFields(patch: PolicyUpdate): void {
  const errors: FieldError[] = [];
  for (const [index, closure] of (patch.closures ?? []).entries()) {
    if (closure.ends_on < closure.starts_on) {
      errors.push(
        bodyError(`/closures/${index}/ends_on`, `must not be before starts_on (${closure.starts_on})`),
      );
    }
  }
  for (const day of WEEKDAYS) {
    for (const problem of overlapsOf(patch.opening_hours?.[day] ?? [])) {
      errors.push(bodyError(`/opening_hours/${day}/${problem.index}`, problem.message));
    }
  }
  if (errors.length === 0) return;
  const named = errors.slice(0, DETAIL_PROBLEMS).map((error) => `${error.field}: ${error.message}`);
  const more = errors.length - named.length;
  throw new AppError('validation_error', named.join('; ') + (more > 0 ? `; and ${more} more problems` : ''), {
    errors,
  });
}

/** Each interval that overlaps one opening before it (or at the same time), with the one it overlaps. */
function overlapsOf(intervals: readonly Interval[]): { index: number; message: string }[] {
  const spans = intervals
    .map((interval, index) => ({ index, interval, ...minutesOf(interval) }))
    .sort((a, b) => a.from - b.from || a.index - b.index);
  const problems: { index: number; message: string }[] = [];
  let latest = spans[0];
  for (const span of spans.slice(1)) {
    if (latest && span.from < latest.to) {
      const other = latest.interval;
      problems.push({
        index: span.index,
        message: `overlaps ${other.opens} to ${other.closes} (item ${latest.index}) of the same weekday`,
      });
    }
    if (!latest || span.to > latest.to) latest = span;
  }
  return problems.sort((a, b) => a.index - b.index);
}

/** Minutes from the weekday's midnight: an interval closing at or before it opens ends the next day. */
function minutesOf({ opens, closes }: Interval): { from: number; to: number } {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const from = minutes(opens);
  const to = minutes(closes);
  return { from, to: to > from ? to : to + DAY_MINUTES };
}

function bodyError(field: string, message: string): FieldError {
  return { location: 'body', field, message };
}
