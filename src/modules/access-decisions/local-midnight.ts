/** Wall-clock formatters, one per time zone: building one costs far more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>();

function offsetMsAt(timeZone: string, at: number): number {
  let format = formats.get(timeZone);
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
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant a local date (YYYY-MM-DD) begins in `timeZone`: when a member's term starts, a freeze ends. */
export function localMidnight(date: string, timeZone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const guess = wall - offsetMsAt(timeZone, wall);
  return new Date(wall - offsetMsAt(timeZone, guess));
}
