import type { Policy } from '@facility-admin/client';
import { WEEKDAYS, type Weekday, weekdayName } from './policy-fields';

interface Interval {
  opens: string;
  closes: string;
}
/** The form's copy of `opening_hours`: null is open at all hours; every weekday listed, [] closed. */
export interface HoursDraft {
  allHours: boolean;
  days: Record<Weekday, Interval[]>;
}

export function hoursDraftOf(hours: Policy['opening_hours']): HoursDraft {
  const days = Object.fromEntries(
    WEEKDAYS.map((day) => [day, (hours?.[day] ?? []).map(({ opens, closes }) => ({ opens, closes }))]),
  ) as Record<Weekday, Interval[]>;
  return { allHours: hours === null, days };
}

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** What the form sends, or the problems it finds itself (by `/opening_hours/<day>/<index>`). */
export function hoursBody(draft: HoursDraft): {
  body: Policy['opening_hours'];
  problems: Record<string, string>;
} {
  if (draft.allHours) return { body: null, problems: {} };
  const problems: Record<string, string> = {};
  const body: Partial<Record<Weekday, Interval[]>> = {};
  for (const day of WEEKDAYS) {
    const intervals = draft.days[day];
    intervals.forEach((interval, index) => {
      if (!TIME.test(interval.opens) || !TIME.test(interval.closes)) {
        problems[`/opening_hours/${day}/${index}`] = 'Enter both times, like 06:00';
      }
    });
    if (intervals.length > 0) body[day] = intervals;
  }
  return { body: body as Policy['opening_hours'], problems };
}

/** How an interval ends, in words: "until 02:00 next day" when it runs past midnight. */
export function endsIn(interval: Interval): string | undefined {
  if (!TIME.test(interval.opens) || !TIME.test(interval.closes)) return undefined;
  if (interval.closes === interval.opens) return `24 hours, until ${interval.closes} next day`;
  return interval.closes < interval.opens ? `until ${interval.closes} next day` : undefined;
}

/** The opening hours: open at all hours, or per weekday, intervals added and removed. */
export function OpeningHoursEditor({
  draft,
  onChange,
  problems,
  hint,
}: {
  draft: HoursDraft;
  onChange: (draft: HoursDraft) => void;
  /** By `/opening_hours/<day>/<index>`, the form's own and the service's. */
  problems: Record<string, string>;
  hint: string;
}) {
  const setDay = (day: Weekday, intervals: Interval[]) =>
    onChange({ ...draft, days: { ...draft.days, [day]: intervals } });
  const setInterval = (day: Weekday, index: number, change: Partial<Interval>) =>
    setDay(
      day,
      draft.days[day].map((interval, i) => (i === index ? { ...interval, ...change } : interval)),
    );
  return (
    <fieldset class="door-editor">
      <legend>Opening hours</legend>
      <p class="hint">{hint}</p>
      <label class="check">
        <input
          type="checkbox"
          checked={draft.allHours}
          onChange={(e) => onChange({ ...draft, allHours: e.currentTarget.checked })}
        />
        Open at all hours (closures still close whole days)
      </label>
      {problems['/opening_hours'] && <p class="field-error">{problems['/opening_hours']}</p>}
      {!draft.allHours && WEEKDAYS.every((day) => draft.days[day].length === 0) && (
        <p class="notice" role="status">
          No day has hours: the door lets no one in.
        </p>
      )}
      {!draft.allHours && (
        <ul class="weekdays">
          {WEEKDAYS.map((day) => (
            <li key={day} class="weekday">
              <span class="weekday-name">{weekdayName(day)}</span>
              <div class="intervals">
                {draft.days[day].length === 0 && <span class="muted">Closed</span>}
                {draft.days[day].map((interval, index) => {
                  const label = `${weekdayName(day)} ${index + 1}`;
                  const problem = problems[`/opening_hours/${day}/${index}`];
                  const ends = endsIn(interval);
                  return (
                    <div key={index} class="interval">
                      <input
                        type="time"
                        aria-label={`${label} opens`}
                        value={interval.opens}
                        aria-invalid={problem ? true : undefined}
                        onInput={(e) => setInterval(day, index, { opens: e.currentTarget.value })}
                      />
                      <span aria-hidden="true">to</span>
                      <input
                        type="time"
                        aria-label={`${label} closes`}
                        value={interval.closes}
                        aria-invalid={problem ? true : undefined}
                        onInput={(e) => setInterval(day, index, { closes: e.currentTarget.value })}
                      />
                      <span class="interval-tail">
                        {ends && <span class="next-day">{ends}</span>}
                        <button
                          type="button"
                          class="link"
                          aria-label={`Remove ${label}`}
                          onClick={() =>
                            setDay(
                              day,
                              draft.days[day].filter((_, i) => i !== index),
                            )
                          }
                        >
                          Remove
                        </button>
                      </span>
                      {problem && <p class="field-error">{problem}</p>}
                    </div>
                  );
                })}
              </div>
              {draft.days[day].length < 6 && (
                <button
                  type="button"
                  class="link add-hours"
                  aria-label={`Add hours on ${weekdayName(day)}`}
                  onClick={() => setDay(day, [...draft.days[day], nextInterval(draft.days[day])])}
                >
                  Add hours
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** A new interval: the usual day for the first, the evening after the last for another. */
function nextInterval(intervals: Interval[]): Interval {
  const last = intervals.at(-1);
  if (!last || !TIME.test(last.closes) || last.closes <= last.opens)
    return { opens: '06:00', closes: '22:00' };
  return { opens: last.closes, closes: last.closes < '23:00' ? '23:00' : '00:00' };
}
