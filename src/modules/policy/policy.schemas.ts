import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { CurrencyCode, Id, MoneyAmount, Timestamp } from '../../http/vocabulary/schemas.js';
import { DEFAULT_DOOR_POLICY, doorPolicyFields } from './policy-door.schemas.js';

const STORED_ONLY = "Stored for the facility's other systems; this service does not enforce it.";

/** Each field says whether this service acts on it or only keeps it for the facility's other systems. */
const editable = {
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'IANA time zone name, aliases included, stored exactly as sent (`Asia/Kolkata` stays `Asia/Kolkata`). ' +
      "Enforced: today in this zone is a new member's default `joined_on` and the date a `date_of_birth` " +
      'is checked against (not in the future; `min_member_age`).',
  }),
  currency: {
    ...CurrencyCode,
    description:
      'ISO 4217 code. Used: the currency of a new plan that names none and whose template names none; ' +
      'existing plans keep theirs.',
  },
  booking_window_days: Type.Integer({
    minimum: 0,
    maximum: 365,
    description: `How many days ahead members may book. ${STORED_ONLY}`,
  }),
  cancellation_cutoff_hours: Type.Integer({
    minimum: 0,
    maximum: 720,
    description: `Hours before a booking after which cancelling is late. ${STORED_ONLY}`,
  }),
  late_cancellation_fee_amount: {
    ...MoneyAmount,
    description: `Fee for a late cancellation, in the minor unit of \`currency\`. ${STORED_ONLY}`,
  },
  no_show_fee_amount: {
    ...MoneyAmount,
    description: `Fee for a booking not attended, in the minor unit of \`currency\`. ${STORED_ONLY}`,
  },
  max_active_bookings: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: `Bookings a member may hold at once. ${STORED_ONLY}`,
  }),
  guest_passes_per_month: Type.Integer({
    minimum: 0,
    maximum: 100,
    description:
      'Guest passes a member gets each calendar month (of the time zone). Enforced by access decisions: ' +
      "more `guests` than are left is `guest_passes_exhausted`; a plan's `guest_passes_per_month` " +
      'entitlement wins over it (docs/access.md).',
  }),
  allow_freeze: Type.Boolean({
    description:
      'Enforced: while false, moving a member to `frozen` by PATCH, and planning a freeze, are 409 ' +
      '`freeze_not_allowed`. Members already frozen stay frozen, and planned freezes still start.',
  }),
  max_freeze_days_per_year: Type.Integer({
    minimum: 0,
    maximum: 365,
    description:
      "Enforced: the days a member is frozen in a calendar year of the facility's time zone (past, current " +
      'and planned freezes; an open-ended freeze, opened by a PATCH to `frozen`, counted to today) may not ' +
      'exceed it: a freeze or a PATCH to `frozen` that would is 422 `freeze_limit_exceeded`. An open-ended ' +
      'freeze that runs past it is not ended by the service.',
  }),
  min_member_age: Type.Integer({
    minimum: 0,
    maximum: 120,
    description:
      'Years; 0 means no limit. Enforced: a `date_of_birth` sent on create or PATCH that makes the member ' +
      'younger is 422 `member_too_young`. Members without a date of birth, and members stored before the ' +
      'policy changed, are not checked.',
  }),
  require_waiver: Type.Boolean({
    description:
      'Enforced: while true, a member becomes `active` (create, PATCH, restore) only with a ' +
      '`waiver_signed_at`, else 422 `waiver_required`. Members already active stay active, and a frozen ' +
      'member whose freeze ends becomes active again.',
  }),
  ...doorPolicyFields,
};

export const Policy = Type.Object(
  { facility_id: Id, ...editable, created_at: Timestamp, updated_at: Timestamp },
  {
    $id: 'Policy',
    additionalProperties: false,
    examples: [
      {
        facility_id: 1,
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        booking_window_days: 14,
        cancellation_cutoff_hours: 24,
        late_cancellation_fee_amount: 500,
        no_show_fee_amount: 1000,
        max_active_bookings: 5,
        guest_passes_per_month: 2,
        allow_freeze: true,
        max_freeze_days_per_year: 60,
        min_member_age: 16,
        require_waiver: true,
        opening_hours: {
          monday: [{ opens: '06:00', closes: '22:00' }],
          friday: [{ opens: '06:00', closes: '02:00' }],
          saturday: [{ opens: '08:00', closes: '20:00' }],
        },
        closures: [{ starts_on: '2026-12-25', ends_on: '2026-12-26', reason: 'Christmas' }],
        max_occupancy: 120,
        anti_passback_minutes: 10,
        visit_limit_mode: 'block',
        week_starts_on: 'monday',
        occupancy_cutoff_minutes: 240,
        created_at: '2026-03-01T08:00:00.000Z',
        updated_at: '2026-03-02T10:04:51.377Z',
      },
    ],
    description:
      'Created on first read with: timezone UTC, currency USD, booking_window_days 14, cancellation_cutoff_hours 24, ' +
      'late_cancellation_fee_amount 0, no_show_fee_amount 0, max_active_bookings 5, guest_passes_per_month 0, ' +
      'allow_freeze true, max_freeze_days_per_year 60, min_member_age 0 (no limit), require_waiver false, ' +
      'opening_hours null (always open), closures none, max_occupancy null (no limit), anti_passback_minutes 0, ' +
      'visit_limit_mode block, week_starts_on monday, occupancy_cutoff_minutes 240',
  },
);
export type Policy = Static<typeof Policy>;
export const policyRepresentation = representationOf(Policy);

export const PolicyUpdate = Type.Partial(Type.Object(editable), {
  $id: 'PolicyUpdate',
  additionalProperties: false,
  description: 'The fields to change; the others keep their values',
  examples: [{ timezone: 'Europe/Berlin', min_member_age: 16 }],
});
export type PolicyUpdate = Static<typeof PolicyUpdate>;

export type PolicySettings = Omit<Policy, 'facility_id' | 'created_at' | 'updated_at'>;

export const DEFAULT_POLICY: PolicySettings = {
  timezone: 'UTC',
  currency: 'USD',
  booking_window_days: 14,
  cancellation_cutoff_hours: 24,
  late_cancellation_fee_amount: 0,
  no_show_fee_amount: 0,
  max_active_bookings: 5,
  guest_passes_per_month: 0,
  allow_freeze: true,
  max_freeze_days_per_year: 60,
  min_member_age: 0,
  require_waiver: false,
  ...DEFAULT_DOOR_POLICY,
};
