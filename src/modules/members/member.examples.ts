/**
 * Realistic bodies for the OpenAPI document (the `examples` of the member
 * schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const memberExample = {
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
  status_reason: null,
  plan_id: 7,
  joined_on: '2026-03-02',
  ends_on: '2027-03-01',
  notes: null,
  waiver_signed_at: '2026-03-02T09:18:40.000Z',
  external_id: 'CRM-1042',
  status_changed_at: '2026-03-02T09:20:11.502Z',
  created_at: '2026-03-02T09:20:11.502Z',
  updated_at: '2026-03-02T09:20:11.502Z',
  deleted_at: null,
  last_check_in_at: '2026-03-09T17:02:11.409Z',
  allowed_transitions: ['frozen', 'suspended', 'cancelled'],
};

export const memberCreateExample = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  date_of_birth: '1990-12-10',
  plan_id: 7,
  waiver_signed_at: '2026-03-02T09:18:40.000Z',
  external_id: 'CRM-1042',
};

export const memberUpdateExample = {
  status: 'suspended',
  status_reason: 'Payment overdue',
  notes: 'Card declined twice',
};

export const memberPageExample = { members: [memberExample], next_cursor: 'aWQ6NDI' };
