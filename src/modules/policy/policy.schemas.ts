import { type Static, Type } from 'typebox';
import { representationOf } from '../../http/representation.js';
import { CurrencyCode, Id, MoneyAmount, Timestamp } from '../../http/schemas.js';

const editable = {
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name' }),
  currency: CurrencyCode,
  booking_window_days: Type.Integer({ minimum: 0, maximum: 365 }),
  cancellation_cutoff_hours: Type.Integer({ minimum: 0, maximum: 720 }),
  late_cancellation_fee_amount: MoneyAmount,
  no_show_fee_amount: MoneyAmount,
  max_active_bookings: Type.Integer({ minimum: 0, maximum: 1000 }),
  guest_passes_per_month: Type.Integer({ minimum: 0, maximum: 100 }),
  allow_freeze: Type.Boolean(),
  max_freeze_days_per_year: Type.Integer({ minimum: 0, maximum: 365 }),
  min_member_age: Type.Integer({ minimum: 0, maximum: 120, description: '0 means no limit' }),
  require_waiver: Type.Boolean(),
};

export const Policy = Type.Object(
  { facility_id: Id, ...editable, created_at: Timestamp, updated_at: Timestamp },
  {
    additionalProperties: false,
    description:
      'Created on first read with: timezone UTC, currency USD, booking_window_days 14, cancellation_cutoff_hours 24, ' +
      'late_cancellation_fee_amount 0, no_show_fee_amount 0, max_active_bookings 5, guest_passes_per_month 0, ' +
      'allow_freeze true, max_freeze_days_per_year 60, min_member_age 0 (no limit), require_waiver false',
  },
);
export type Policy = Static<typeof Policy>;
export const policyRepresentation = representationOf(Policy);

export const PolicyPatch = Type.Partial(Type.Object(editable), { additionalProperties: false });
export type PolicyPatch = Static<typeof PolicyPatch>;

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
};
