/** Calendar arithmetic on `YYYY-MM-DD` dates, in UTC so that no time zone or DST shifts a day. */

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
