/**
 * Realistic bodies for the OpenAPI document (the `examples` of the facility
 * schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const facilityExample = {
  id: 1,
  name: 'Riverside Sports Centre',
  address: '12 Quay Street, Bristol BS1 4DJ',
  contact_email: 'desk@riverside.example',
  phone: '+44 117 496 0000',
  status: 'active',
  archived_at: null,
  created_at: '2026-03-02T09:15:04.118Z',
  updated_at: '2026-03-02T09:15:04.118Z',
};

export const facilityCreateExample = {
  name: 'Riverside Sports Centre',
  address: '12 Quay Street, Bristol BS1 4DJ',
  contact_email: 'desk@riverside.example',
  timezone: 'Europe/London',
  currency: 'GBP',
};

export const facilityUpdateExample = { phone: '+44 117 496 0000' };

export const facilityPageExample = { facilities: [facilityExample], next_cursor: null };
