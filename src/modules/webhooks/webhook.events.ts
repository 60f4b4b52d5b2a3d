import { defineResourceEvents } from '../../journal/event-types.js';

/**
 * A webhook endpoint's changes are audited; the one that is an event is the
 * service disabling it (its writes name the type), for the other endpoints
 * and the feed to say so.
 */
defineResourceEvents({
  resourceType: 'webhook_endpoint',
  examples: {
    'webhook_endpoint.disabled': {
      id: 3,
      facility_id: 1,
      url: 'https://doors.example.com/hooks/facility-admin',
      description: 'Access control',
      types: [],
      enabled: false,
      disabled_reason: 'Every delivery failed from 2026-03-04T16:42:07.905Z to 2026-03-09T16:42:07.905Z',
      created_at: '2026-03-01T08:00:00.000Z',
      updated_at: '2026-03-09T16:42:07.905Z',
    },
  },
  typeOf: () => undefined,
});

/** A ping or retry a key asked for is audited; it is no event (deliveries carry the events). */
defineResourceEvents({
  resourceType: 'webhook_delivery',
  examples: {},
  typeOf: () => undefined,
});
