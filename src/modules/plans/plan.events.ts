import { type ChangeReport, defineResourceEvents } from '../../journal/event-types.js';
import { entitlementsExample, planExample } from './plan.examples.js';

const at = '2026-03-09T16:42:07.905Z';

/** A plan's changes in the change feed. */
defineResourceEvents({
  resourceType: 'plan',
  examples: {
    'plan.created': planExample,
    'plan.updated': { ...planExample, price_amount: 5400, updated_at: at },
    'plan.deleted': { ...planExample, is_active: false, deleted_at: at, updated_at: at, hard_deleted: false },
  },
  typeOf: ({ action }) => {
    if (action === 'create') return 'plan.created';
    if (action === 'delete' || action === 'hard_delete') return 'plan.deleted';
    return 'plan.updated';
  },
});

/**
 * A plan's entitlements, journaled as one resource whose fields are the keys:
 * the event carries the whole set after the change, by key.
 */
defineResourceEvents({
  resourceType: 'entitlements',
  examples: { 'plan.entitlements_changed': { plan_id: 7, ...entitlementsExample } },
  typeOf: () => 'plan.entitlements_changed',
  // Its events keep their order with the plan's.
  keyOf: (change: ChangeReport) => `plan:${change.resourceId}`,
  dataOf: (change: ChangeReport) => ({
    plan_id: Number(change.resourceId),
    entitlements: Object.entries(change.after ?? {})
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
  }),
});
