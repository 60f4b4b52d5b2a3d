import { Type } from 'typebox';
import { DateOnly, Nullable, StringEnum } from '../../http/vocabulary/schemas.js';

/** The policy's rules for the door, which access decisions apply (docs/access.md). */

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const ClockTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "A local time of day, `HH:MM` (24 hours), in the facility's time zone",
});

export const OpeningInterval = Type.Object(
  {
    opens: ClockTime,
    closes: {
      ...ClockTime,
      description:
        'When it closes, `HH:MM`. At or before `opens`, the interval crosses midnight and ends on the next day',
    },
  },
  { additionalProperties: false },
);

const dayIntervals = Type.Array(OpeningInterval, {
  maxItems: 6,
  description: 'The intervals the facility is open on this weekday (none or absent: closed all day)',
});

// Type.Optional per weekday, not Type.Partial, which drops additionalProperties: a
// misspelt weekday (`Monday`) would be stored and read as a day the facility is closed.
const optionalDayIntervals = Type.Optional(dayIntervals);
export const OpeningHours = Type.Object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, optionalDayIntervals])) as Record<
    Weekday,
    typeof optionalDayIntervals
  >,
  { additionalProperties: false },
);

export const Closure = Type.Object(
  {
    starts_on: DateOnly,
    ends_on: DateOnly,
    reason: Nullable(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const doorPolicyFields = {
  opening_hours: Nullable(OpeningHours, {
    description:
      "Enforced by access decisions: per weekday, the intervals the facility is open, in its time zone; an interval whose `closes` is before its `opens` crosses midnight and belongs to the weekday it opens on; `closes` equal to `opens` is open 24 hours. A weekday left out, or with no intervals, is closed. null: open at all hours. One weekday's intervals may not overlap (400 on the later one; touching is fine). A local time the clock skips (DST) is the instant the clock jumps; one it shows twice is its first showing. Outside them a decision is denied with `outside_opening_hours`, `until` the next opening.",
  }),
  closures: Type.Array(Closure, {
    maxItems: 100,
    description:
      'Enforced by access decisions: dated exceptions, whole days closed from `starts_on` to `ends_on` (both included, local dates: from the midnight that starts the first to the one that ends the last), whatever `opening_hours` say; an interval running into or out of a closure is cut at its midnight. `ends_on` before `starts_on` is 400.',
  }),
  max_occupancy: Nullable(Type.Integer({ minimum: 1, maximum: 100000 }), {
    description:
      'Enforced by access decisions: how many people (members and their guests) may be in at once; a decision that would exceed it is denied with `facility_full`. null: no limit.',
  }),
  anti_passback_minutes: Type.Integer({
    minimum: 0,
    maximum: 1440,
    description:
      'Enforced by access decisions: a member allowed in is denied again (`already_checked_in`) for this many minutes, unless checked out. 0: no anti-passback.',
  }),
  visit_limit_mode: StringEnum(['block', 'warn', 'count'] as const, {
    description:
      'What a visit limit (`visits_per_day`, `visits_per_week`, `visits_per_month` entitlements) does when reached: `block` denies (`visit_limit_reached`); `warn` allows with the reason listed; `count` only counts (the balance still shows).',
  }),
  week_starts_on: StringEnum(WEEKDAYS, {
    description: "The first day of a week for `visits_per_week`, in the facility's time zone.",
  }),
  occupancy_cutoff_minutes: Type.Integer({
    minimum: 15,
    maximum: 1440,
    description:
      'A check-in not checked out counts toward the occupancy for this many minutes, for those who never check out.',
  }),
};

export const DEFAULT_DOOR_POLICY = {
  opening_hours: null,
  closures: [],
  max_occupancy: null,
  anti_passback_minutes: 0,
  visit_limit_mode: 'block' as const,
  week_starts_on: 'monday' as const,
  occupancy_cutoff_minutes: 240,
};
