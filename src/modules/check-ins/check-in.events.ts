import { defineResourceEvents } from '../../journal/event-types.js';
import { checkInExample } from './check-in.examples.js';

const denied = {
  ...checkInExample,
  id: 9121,
  area: null,
  guests: 0,
  decision: 'deny',
  reasons: ['visit_limit_reached'],
};

/** Decisions at the door in the change feed: each recorded decision, and a check-out. */
defineResourceEvents({
  resourceType: 'check_in',
  examples: {
    'access.allowed': checkInExample,
    'access.denied': denied,
    'check_in.checked_out': { ...checkInExample, checked_out_at: '2026-03-09T18:31:40.220Z' },
  },
  typeOf: ({ action, after }) => {
    if (action === 'create') return after?.decision === 'allow' ? 'access.allowed' : 'access.denied';
    return 'check_in.checked_out';
  },
  // A member's visits keep their order with the member's other events.
  keyOf: ({ before, after }) => {
    const memberId = (after ?? before)?.member_id;
    return memberId == null ? `check_in:${(after ?? before)?.id}` : `member:${memberId}`;
  },
});
