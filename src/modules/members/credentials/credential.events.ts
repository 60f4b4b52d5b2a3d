import { defineResourceEvents } from '../../../journal/event-types.js';

/**
 * A credential's creation and revocation are audited only: the feed and its
 * webhooks would carry a door's secrets (even their last four) to other systems.
 */
defineResourceEvents({ resourceType: 'credential', examples: {}, typeOf: () => undefined });
