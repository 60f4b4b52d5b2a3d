import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import { eventRoutes } from './event.routes.js';
import { eventSchemas } from './event.schemas.js';
import { pruneOldEvents } from './events.job.js';

/** The change feed of a facility. */
export const eventsModule: ServiceModule = {
  name: 'events',
  routes: [eventRoutes],
  schemas: eventSchemas,
  jobs: (config) => [pruneOldEvents(config.eventsRetentionDays)],
};
