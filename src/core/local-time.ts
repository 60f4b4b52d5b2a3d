/**
 * Local times of a time zone as instants: the one place that turns a wall
 * clock reading (`2026-03-29` at `02:30` in `Europe/Berlin`) into an instant,
 * with `Intl` (the only time-zone data every supported Node line has; Temporal
 * is not in Node 22 or 24).
 *
 * A reading the clock skips (a DST gap: Berlin goes from 02:00 to 03:00) is
 * the instant the gap ends, the first instant whose reading is later; one the
 * clock shows twice (fall back: 02:30 comes twice) is the first of the two.
 * So a facility opening at 02:30 on the night the clocks go forward opens at
 * 03:00, and a day whose midnight is skipped starts when the clock jumps.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Building an Intl formatter costs far more than using one: one per time zone, kept. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClockOf(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, format);
  }
  return format;
}

/** What the zone's clock reads at `instant`, written as if it were a UTC time (ms). */
function readingAt(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of wallClockOf(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  // Not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const reading = new Date(0);
  reading.setUTCFullYear(year, month - 1, day);
  return reading.setUTCHours(hour, minute, second, 0);
}

/** The zone's offset from UTC at `instant`, in ms (whole seconds). */
function offsetAt(timeZone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return readingAt(timeZone, whole) - whole;
}

/**
 * The instant the clock of `timeZone` reads `time` (`HH:MM`) on `date`
 * (`YYYY-MM-DD`); see the module's note for readings skipped or repeated.
 */
export function instantOfLocal(timeZone: string, date: string, time: string): Date {
  const key = `${timeZone} ${date} ${time}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    if (instants.size >= INSTANTS_KEPT) instants.clear();
    instant = computeInstantOfLocal(timeZone, date, time);
    instants.set(key, instant);
  }
  return new Date(instant);
}

/**
 * Access decisions ask for the same few local midnights and opening times
 * again and again, and each costs several Intl calls (about 17 µs): kept,
 * up to a bound (the zone's rules do not change while the process runs).
 */
const instants = new Map<string, number>();
const INSTANTS_KEPT = 4096;

function computeInstantOfLocal(timeZone: string, date: string, time: string): number {
  const reading = Date.parse(`${date}T${time}:00Z`);
  // The offsets a day either side: a reading near a change has one of them.
  const offsets = new Set([
    offsetAt(timeZone, reading - DAY_MS),
    offsetAt(timeZone, reading),
    offsetAt(timeZone, reading + DAY_MS),
  ]);
  const shown = [...offsets]
    .map((offset) => reading - offset)
    .filter((instant) => readingAt(timeZone, instant) === reading);
  if (shown.length > 0) return Math.min(...shown);
  return gapEnd(timeZone, reading, offsets);
}

/** The first instant whose reading is later than `reading`, a reading the clock skips. */
function gapEnd(timeZone: string, reading: number, offsets: Set<number>): number {
  // The clock skips `reading`: at `low` it still reads earlier, at `high` already later.
  let low = reading - Math.max(...offsets);
  let high = reading - Math.min(...offsets);
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (readingAt(timeZone, middle) < reading) low = middle;
    else high = middle;
  }
  return high;
}
