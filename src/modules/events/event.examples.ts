import { memberExample } from '../members/member.examples.js';
import { entitlementsExample, planExample } from '../plans/plan.examples.js';
import { Policy } from '../policy/policy.schemas.js';
import type { EventType } from './event-types.js';

const policyExample = (Policy as unknown as { examples: Record<string, unknown>[] }).examples[0];

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
  'policy.updated': event(509, 'policy.updated', { ...policyExample, allow_freeze: false, updated_at: at }),
};
