import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import { sessionRoutes } from './session.routes.js';
import { Session } from './session.schemas.js';

/** Who the caller is. */
export const sessionModule: ServiceModule = {
  name: 'session',
  routes: [{ plugin: sessionRoutes, options: (config) => ({ authMode: config.authMode }) }],
  schemas: [Session],
};
