import { defineResourceEvents } from '../../journal/event-types.js';
import { facilityExample } from './facility.examples.js';

/** A facility's changes in the change feed. */
defineResourceEvents({
  resourceType: 'facility',
  examples: {
    'facility.created': facilityExample,
    'facility.updated': { ...facilityExample, phone: null, updated_at: '2026-03-09T16:42:07.905Z' },
  },
  typeOf: ({ action }) => (action === 'create' ? 'facility.created' : 'facility.updated'),
});
