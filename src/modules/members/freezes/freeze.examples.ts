/**
 * Realistic bodies for the OpenAPI document (the `examples` of the freeze
 * schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const freezeExample = {
  id: 5,
  member_id: 42,
  starts_on: '2026-03-01',
  ends_on: '2026-03-21',
  reason: 'Knee surgery',
  created_at: '2026-02-20T16:02:45.118Z',
  cancelled_at: null,
};

export const freezeCreateExample = { starts_on: '2026-03-01', ends_on: '2026-03-21', reason: 'Knee surgery' };

export const freezePageExample = { freezes: [freezeExample], next_cursor: null };
