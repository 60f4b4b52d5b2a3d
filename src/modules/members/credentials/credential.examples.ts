/**
 * Realistic bodies for the OpenAPI document (the `examples` of the
 * credential schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const credentialExample = {
  id: 9,
  facility_id: 1,
  member_id: 42,
  type: 'card',
  value_last4: '7731',
  label: 'Blue key fob',
  created_at: '2026-03-02T09:20:11.512Z',
  revoked_at: null,
};

export const credentialCreatedExample = { ...credentialExample, value: '04A2241A7731' };

export const credentialCreateExample = { type: 'card', value: '04A2241A7731', label: 'Blue key fob' };

export const credentialPageExample = { credentials: [credentialExample], next_cursor: null };
