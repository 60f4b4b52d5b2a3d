import { defineResourceEvents } from '../../journal/event-types.js';

/** An API key's creation and revocation are audited only: no event of the feed, no webhook. */
defineResourceEvents({ resourceType: 'api_key', examples: {}, typeOf: () => undefined });
