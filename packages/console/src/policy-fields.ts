export type Kind = 'text' | 'integer' | 'money' | 'boolean';
export interface PolicyField {
  /** A field of PolicyUpdate (the test holds the list to the document). */
  name: string;
  label: string;
  kind: Kind;
  enforced: boolean;
  description: string;
}

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
    enforced: false,
    description: 'Guest passes a member gets each month.',
  },
  {
    name: 'require_waiver',
    label: 'Require a waiver',
    kind: 'boolean',
    enforced: true,
    description: 'While on, a member becomes active only once their waiver is signed.',
  },
];
