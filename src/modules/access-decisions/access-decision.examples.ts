/**
 * Realistic bodies for the OpenAPI document (the `examples` of the access
 * decision schemas); test/openapi-document.test.ts checks each against its schema.
 */
import { checkInExample } from '../check-ins/check-in.examples.js';

export const accessDecisionRequestExample = { credential: '04A23B7C3F9A', area: 'sauna', guests: 1 };

export const accessDecisionExample = {
  decision: 'allow',
  reasons: [],
  member: {
    id: 42,
    first_name: 'Maya',
    last_name: 'Lindqvist',
    status: 'active',
    plan_id: 7,
    plan_name: 'Adult monthly',
  },
  entitlements: { sauna: true, visits_per_week: 5, guest_passes_per_month: 2 },
  remaining: {
    visits: { period: 'week', limit: 5, used: 3, left: 2, resets_at: '2026-03-15T23:00:00.000Z' },
    guest_passes: { limit: 2, used: 1, left: 0, resets_at: '2026-03-31T22:00:00.000Z' },
  },
  check_in: checkInExample,
  decided_at: '2026-03-09T17:02:11.409Z',
  dry_run: false,
};

export const deniedDecisionExample = {
  ...accessDecisionExample,
  decision: 'deny',
  reasons: [
    {
      code: 'visit_limit_reached',
      message: 'Maya has used all 5 visits of this week.',
      until: '2026-03-15T23:00:00.000Z',
    },
  ],
  remaining: {
    visits: { period: 'week', limit: 5, used: 5, left: 0, resets_at: '2026-03-15T23:00:00.000Z' },
    guest_passes: null,
  },
  check_in: { ...checkInExample, guests: 0, decision: 'deny', reasons: ['visit_limit_reached'] },
};
