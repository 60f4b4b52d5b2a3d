/**
 * Dates: calendar arithmetic on `YYYY-MM-DD` dates, in UTC so that no time
 * zone or DST shifts a day, and today's date in a time zone (a facility's).
 */

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetweenInclusive(from: string, to: string): number {
  return Math.max(
    0,
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1,
  );
}

export const earlierOf = (a: string, b: string) => (a < b ? a : b);
export const laterOf = (a: string, b: string) => (a > b ? a : b);

/**
 * Today's date (YYYY-MM-DD) in the given time zone. The date changes only
 * when a minute does (every zone's offset is whole minutes today), so it is
 * formatted once per zone and minute: formatting it on every create was a
 * visible part of a create's cost (docs/performance-log.md).
 */
export function todayIn(timeZone: string, now: Date): string {
  const time = now.getTime();
  const known = todays.get(timeZone);
  if (known !== undefined && time >= known.from && time < known.from + 60_000) return known.date;
  const date = dateFormatFor(timeZone).format(now);
  todays.set(timeZone, { date, from: Math.floor(time / 60_000) * 60_000 });
  return date;
}

const todays = new Map<string, { date: string; from: number }>();

/** Building an Intl formatter costs far more than using one: one per time zone, kept. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormatFor(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format;
}
