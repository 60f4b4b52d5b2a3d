import { defineResourceEvents } from '../../journal/event-types.js';
import { Policy } from './policy.schemas.js';

/** A facility's policy changes in the change feed. */
defineResourceEvents({
  resourceType: 'policy',
  examples: {
    'policy.updated': {
      ...((Policy as { examples?: Record<string, unknown>[] }).examples ?? [])[0],
      allow_freeze: false,
      updated_at: '2026-03-09T16:42:07.905Z',
    },
  },
  typeOf: () => 'policy.updated',
});
