/**
 * Realistic bodies for the OpenAPI document (the `examples` of the plan
 * schemas); test/openapi-document.test.ts checks each against its schema.
 */
export const planExample = {
  id: 7,
  facility_id: 1,
  name: 'Adult monthly',
  description: 'Gym floor and every group class; cancel any month',
  sport_id: null,
  price_amount: 4900,
  currency: 'EUR',
  billing_period: 'monthly',
  duration_days: null,
  joining_fee_amount: 1500,
  max_members: 200,
  is_active: true,
  template_id: null,
  created_at: '2026-03-02T09:15:04.118Z',
  updated_at: '2026-03-02T09:15:04.118Z',
  deleted_at: null,
};

export const planCreateExample = {
  name: 'Adult monthly',
  description: 'Gym floor and every group class; cancel any month',
  price_amount: 4900,
  currency: 'EUR',
  billing_period: 'monthly',
  joining_fee_amount: 1500,
  max_members: 200,
};

export const planUpdateExample = { price_amount: 5400, max_members: 250 };

export const planPageExample = { plans: [planExample], next_cursor: 'aWQ6Nw' };

export const entitlementsExample = {
  entitlements: [
    { key: 'guest_passes', value: 2 },
    { key: 'locker', value: 'small' },
    { key: 'sauna', value: true },
  ],
};

export const entitlementsReplaceExample = { entitlements: { guest_passes: 2, sauna: true, locker: 'small' } };
