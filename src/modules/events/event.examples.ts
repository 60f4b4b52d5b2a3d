import type { EventType } from '../../journal/event-types.js';

// Written out here rather than imported: the resource modules depend on this one (through the audit trail).
const planExample = {
  id: 7,
  facility_id: 1,
  name: 'Adult monthly',
  description: 'Gym floor and every group class; cancel any month',
  sport_id: null,
  template_id: null,
  price_amount: 4900,
  currency: 'EUR',
  billing_period: 'monthly',
  duration_days: null,
  joining_fee_amount: 1500,
  max_members: 200,
  is_active: true,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
  deleted_at: null,
};
const entitlementsExample = {
  entitlements: [
    { key: 'guest_passes', value: 2 },
    { key: 'locker', value: 'small' },
  ],
};
const memberExample = {
  id: 42,
  facility_id: 1,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  date_of_birth: '1990-12-10',
  sport_id: null,
  role: 'member',
  status: 'active',
  plan_id: 7,
  joined_on: '2026-03-02',
  notes: null,
  status_changed_at: '2026-03-02T09:20:11.502Z',
  created_at: '2026-03-02T09:20:11.502Z',
  updated_at: '2026-03-02T09:20:11.502Z',
  deleted_at: null,
};
const policyExample = {
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
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-02T10:04:51.377Z',
};

const freezeExample = {
  id: 5,
  facility_id: 1,
  member_id: 42,
  starts_on: '2026-03-01',
  ends_on: '2026-03-21',
  reason: 'Knee surgery',
  state: 'scheduled',
  created_at: '2026-02-20T16:02:45.118Z',
  cancelled_at: null,
};

/** One realistic event of every type, for the OpenAPI document and docs/webhooks.md. */
const at = '2026-03-09T16:42:07.905Z';
const event = (id: number, type: EventType, data: Record<string, unknown>) => ({
  id,
  type,
  facility_id: 1,
  occurred_at: at,
  data,
});

export const eventExamples: Record<EventType, ReturnType<typeof event>> = {
  'plan.created': event(501, 'plan.created', planExample),
  'plan.updated': event(502, 'plan.updated', { ...planExample, price_amount: 5400, updated_at: at }),
  'plan.deleted': event(503, 'plan.deleted', {
    ...planExample,
    is_active: false,
    deleted_at: at,
    updated_at: at,
    hard_deleted: false,
  }),
  'plan.entitlements_changed': event(504, 'plan.entitlements_changed', {
    plan_id: 7,
    ...entitlementsExample,
  }),
  'member.created': event(505, 'member.created', memberExample),
  'member.updated': event(506, 'member.updated', {
    ...memberExample,
    phone: '+44 20 7946 0000',
    updated_at: at,
  }),
  'member.status_changed': event(507, 'member.status_changed', {
    ...memberExample,
    status: 'frozen',
    status_changed_at: at,
    updated_at: at,
    previous_status: 'active',
  }),
  'member.deleted': event(508, 'member.deleted', {
    ...memberExample,
    status: 'removed',
    status_changed_at: at,
    deleted_at: at,
    updated_at: at,
    hard_deleted: false,
  }),
  'member.freeze_created': event(510, 'member.freeze_created', freezeExample),
  'member.freeze_updated': event(511, 'member.freeze_updated', { ...freezeExample, state: 'under_way' }),
  'member.freeze_cancelled': event(512, 'member.freeze_cancelled', {
    ...freezeExample,
    state: 'under_way',
    ends_on: '2026-03-09',
    cancelled_at: at,
  }),
  'policy.updated': event(509, 'policy.updated', { ...policyExample, allow_freeze: false, updated_at: at }),
  'webhook_endpoint.disabled': event(513, 'webhook_endpoint.disabled', {
    id: 3,
    facility_id: 1,
    url: 'https://doors.example.com/hooks/facility-admin',
    description: 'Access control',
    types: [],
    enabled: false,
    disabled_reason: 'Every delivery failed from 2026-03-04T16:42:07.905Z to 2026-03-09T16:42:07.905Z',
    created_at: '2026-03-01T08:00:00.000Z',
    updated_at: at,
  }),
};
