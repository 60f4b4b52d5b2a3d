import { defineResourceEvents } from '../../journal/event-types.js';

const at = '2026-03-09T16:42:07.905Z';
const freeze = {
  id: 5,
  facility_id: 1,
  member_id: 42,
  starts_on: '2026-03-01',
  ends_on: '2026-03-21',
  reason: 'Knee surgery',
  state: 'scheduled',
  created_at: '2026-02-20T16:02:45.118Z',
  cancelled_at: null,
};

/** A member's freezes in the change feed: events of their member. */
defineResourceEvents({
  resourceType: 'freeze',
  examples: {
    'member.freeze_created': freeze,
    'member.freeze_updated': { ...freeze, state: 'under_way' },
    'member.freeze_cancelled': { ...freeze, state: 'under_way', ends_on: '2026-03-09', cancelled_at: at },
  },
  typeOf: ({ action, before, after }) => {
    if (action === 'create') return 'member.freeze_created';
    if (before?.cancelled_at == null && after?.cancelled_at != null) return 'member.freeze_cancelled';
    return 'member.freeze_updated';
  },
  // A freeze's events keep their order with its member's: a freeze starting and the member's status move.
  keyOf: ({ before, after }) => `member:${(after ?? before)?.member_id}`,
});
