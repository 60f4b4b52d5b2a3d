/**
 * Realistic bodies for the OpenAPI document (the `examples` of the check-in
 * schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const checkInExample = {
  id: 9120,
  facility_id: 1,
  member_id: 42,
  credential_id: 17,
  credential_last4: '3F9A',
  area: 'sauna',
  guests: 1,
  decision: 'allow',
  reasons: [],
  actor: { type: 'api_key', id: 12, name: 'Front door reader' },
  checked_in_at: '2026-03-09T17:02:11.409Z',
  checked_out_at: null,
};

export const checkInPageExample = { check_ins: [checkInExample], next_cursor: null };

export const occupancyExample = {
  present: 37,
  guests: 4,
  total: 41,
  max_occupancy: 120,
  cutoff_minutes: 240,
  as_of: '2026-03-09T17:05:00.000Z',
};
