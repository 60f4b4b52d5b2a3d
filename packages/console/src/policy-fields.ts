/**
 * `optional-integer`: empty is null (no limit); `choice`: one of `options`;
 * `hours` and `closures` have editors of their own (policy-hours.tsx,
 * policy-closures.tsx).
 */
export type Kind =
  | 'text'
  | 'integer'
  | 'optional-integer'
  | 'money'
  | 'boolean'
  | 'choice'
  | 'hours'
  | 'closures';
export interface PolicyField {
  /** A field of PolicyUpdate (the test holds the list to the document). */
  name: string;
  label: string;
  kind: Kind;
  enforced: boolean;
  description: string;
  /** The door's rules, which access decisions apply: a section of the form of their own. */
  door?: boolean;
  options?: { value: string; label: string }[];
}

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
export const weekdayName = (day: Weekday) => day.charAt(0).toUpperCase() + day.slice(1);

/**
 * Every policy field the form shows, what it means, and whether this service
 * enforces it or only keeps it for other systems: the same as the OpenAPI
 * document's descriptions ("Enforced:" or "Stored for…"), which
 * packages/console/test/policy-fields.test.ts holds it to.
 */
export const POLICY_FIELDS: PolicyField[] = [
  {
    name: 'timezone',
    label: 'Timezone',
    kind: 'text',
    enforced: true,
    description:
      "IANA name (Europe/Berlin). Today in this zone is a new member's default join date; the console shows times in it.",
  },
  {
    name: 'currency',
    label: 'Currency',
    kind: 'text',
    enforced: true,
    description: 'ISO 4217 code. A new plan that names no currency gets this one.',
  },
  {
    name: 'min_member_age',
    label: 'Minimum member age',
    kind: 'integer',
    enforced: true,
    description: 'Years; 0 means no limit. A younger date of birth is refused.',
  },
  {
    name: 'allow_freeze',
    label: 'Allow freezing',
    kind: 'boolean',
    enforced: true,
    description: 'While off, moving a member to frozen, or planning a freeze, is refused.',
  },
  {
    name: 'max_freeze_days_per_year',
    label: 'Freeze days per year',
    kind: 'integer',
    enforced: true,
    description:
      "Most days a member may be frozen in a calendar year of the facility's time zone; a freeze past it is refused.",
  },
  {
    name: 'booking_window_days',
    label: 'Booking window (days)',
    kind: 'integer',
    enforced: false,
    description: 'How many days ahead members may book.',
  },
  {
    name: 'cancellation_cutoff_hours',
    label: 'Cancellation cut-off (hours)',
    kind: 'integer',
    enforced: false,
    description: 'Hours before a booking after which cancelling is late.',
  },
  {
    name: 'late_cancellation_fee_amount',
    label: 'Late cancellation fee',
    kind: 'money',
    enforced: false,
    description: 'Charged for a late cancellation.',
  },
  {
    name: 'no_show_fee_amount',
    label: 'No-show fee',
    kind: 'money',
    enforced: false,
    description: 'Charged for a booking not attended.',
  },
  {
    name: 'max_active_bookings',
    label: 'Active bookings at once',
    kind: 'integer',
    enforced: false,
    description: 'Bookings a member may hold at once.',
  },
  {
    name: 'guest_passes_per_month',
    label: 'Guest passes per month',
    kind: 'integer',
    enforced: true,
    description: "Guests a member may bring in each month, unless their plan's entitlement says otherwise.",
  },
  {
    name: 'require_waiver',
    label: 'Require a waiver',
    kind: 'boolean',
    enforced: true,
    description: 'While on, a member becomes active only once their waiver is signed.',
  },
  {
    name: 'opening_hours',
    label: 'Opening hours',
    kind: 'hours',
    enforced: true,
    door: true,
    description:
      "The door lets members in only within these hours, in the facility's time zone. A day with no hours is closed.",
  },
  {
    name: 'closures',
    label: 'Closures',
    kind: 'closures',
    enforced: true,
    door: true,
    description: 'Whole days closed, whatever the opening hours say (holidays, works).',
  },
  {
    name: 'max_occupancy',
    label: 'Maximum occupancy',
    kind: 'optional-integer',
    enforced: true,
    door: true,
    description:
      'People (members and their guests) in at once; empty means no limit. A check-in past it is refused.',
  },
  {
    name: 'anti_passback_minutes',
    label: 'Anti-passback (minutes)',
    kind: 'integer',
    enforced: true,
    door: true,
    description: 'A member let in is refused again for this many minutes, unless checked out; 0 means none.',
  },
  {
    name: 'visit_limit_mode',
    label: 'When a visit limit is reached',
    kind: 'choice',
    enforced: true,
    door: true,
    description: "What the door does once a plan's visits per day, week or month are used up.",
    options: [
      { value: 'block', label: 'Refuse entry' },
      { value: 'warn', label: 'Let in, with a warning' },
      { value: 'count', label: 'Let in; only count' },
    ],
  },
  {
    name: 'week_starts_on',
    label: 'Week starts on',
    kind: 'choice',
    enforced: true,
    door: true,
    description: 'The first day of a week for weekly visit limits.',
    options: WEEKDAYS.map((day) => ({ value: day, label: weekdayName(day) })),
  },
  {
    name: 'occupancy_cutoff_minutes',
    label: 'Occupancy cut-off (minutes)',
    kind: 'integer',
    enforced: true,
    door: true,
    description: 'A check-in never checked out stops counting toward the occupancy after this many minutes.',
  },
];
