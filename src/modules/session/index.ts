import { Actor, Permission, Role } from '../../http/people-schemas.js';
import type { ServiceModule } from '../../http/service-module.js';
import { sessionRoutes } from './session.routes.js';
import { Session } from './session.schemas.js';

/** Who the caller is; the vocabulary of people (actors, roles, permissions). */
export const sessionModule: ServiceModule = {
  name: 'session',
  routes: [{ plugin: sessionRoutes, options: (config) => ({ authMode: config.authMode }) }],
  schemas: [Actor, Role, Permission, Session],
};
