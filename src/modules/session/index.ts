import { Actor, Permission, Role } from '../../http/vocabulary/people-schemas.js';
import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './session.problems.js';
import { oidcRoutes, oidcSchemas } from './oidc.routes.js';
import { sessionRoutes } from './session.routes.js';
import { Session } from './session.schemas.js';
import { signInRoutes, signInSchemas } from './sign-in.routes.js';

/** Who the caller is; the vocabulary of people (actors, roles, permissions). */
export const sessionModule: ServiceModule = {
  name: 'session',
  routes: [
    { plugin: sessionRoutes, options: (config) => ({ authMode: config.authMode }) },
    { plugin: signInRoutes, options: (config) => ({ config }) },
    { plugin: oidcRoutes, options: (config) => ({ config }) },
  ],
  schemas: [Actor, Role, Permission, Session, ...signInSchemas, ...oidcSchemas],
};
