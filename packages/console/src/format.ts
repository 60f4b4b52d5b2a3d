/** Dates and money as a person at the facility reads them: its timezone, its currency's major unit. */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const TIMESTAMP_PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

/** An ISO 8601 UTC timestamp as the service writes them (2026-11-22T10:00:00.000Z). */
export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value);
}

/** A timestamp (ISO, UTC) in the facility's timezone, with the zone named. */
export function formatTimestamp(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    try {
      // Components, not dateStyle/timeStyle: those refuse timeZoneName.
      format = new Intl.DateTimeFormat(undefined, { ...TIMESTAMP_PARTS, timeZone });
    } catch {
      format = new Intl.DateTimeFormat(undefined, { ...TIMESTAMP_PARTS, timeZone: 'UTC' });
    }
    dateTimeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** A date (YYYY-MM-DD) is a calendar day, not an instant: shown as is, in words, never shifted by a zone. */
export function formatDate(day: string | null | undefined): string {
  if (!day) return '—';
  const [y, m, d] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** Today's calendar day (YYYY-MM-DD) in a timezone: the facility's today, not the browser's. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    return now.toISOString().slice(0, 10);
  }
  const part = (type: string) => format.formatToParts(now).find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Digits after the decimal point of a currency (JPY 0, EUR 2, BHD 3). */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** An amount in minor units (cents) as money: 4900 USD is $49.00. */
export function formatMoney(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  const digits = minorDigits(currency);
  const major = minor / 10 ** digits;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(major);
  } catch {
    return `${major.toFixed(digits)} ${currency}`;
  }
}

/** What a person types (49.90) in minor units (4990); undefined when it is not an amount. */
export function parseMoney(text: string, currency: string): number | undefined {
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const digits = minorDigits(currency);
  const [whole, fraction = ''] = trimmed.split('.');
  if (fraction.length > digits) return undefined;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Minor units as the text of a money input (4990 → "49.90"). */
export function moneyInput(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '';
  const digits = minorDigits(currency);
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
}

/** A timestamp's time of day (14:05) in the facility's timezone: for lists of one day. */
export function formatTime(iso: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

/** How far a timezone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant the facility's today began (its local midnight), as the service writes timestamps. */
export function startOfTodayIn(timeZone: string, now: Date = new Date()): string {
  const [y, m, d] = todayIn(timeZone, now).split('-').map(Number);
  const midnight = Date.UTC(y, m - 1, d);
  try {
    // Twice: the offset at the guess may differ from the offset at midnight itself (a DST change that day).
    const first = midnight - offsetAt(timeZone, midnight);
    return new Date(midnight - offsetAt(timeZone, first)).toISOString();
  } catch {
    return new Date(midnight).toISOString();
  }
}
