import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.js';
import { Actor, Permission, Role } from '../../http/vocabulary/people-schemas.js';
import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './session.problems.js';
import { accountRoutes, accountSchemas } from './account.routes.js';
import { AccountFailures } from './account-failures.js';
import { oidcRoutes, oidcSchemas } from './oidc.routes.js';
import { passwordResetRoutes, passwordResetSchemas } from './password-reset.routes.js';
import { sessionRoutes } from './session.routes.js';
import { Session } from './session.schemas.js';
import { signInRoutes, signInSchemas } from './sign-in.routes.js';

/** Sign-in and a person's own account: one count of failed password checks per account for both. */
const accountScope: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  const failures = new AccountFailures(config.people.signInFailuresPerAccount, config.authFailureWindowMs);
  await app.register(signInRoutes, { config, failures });
  await app.register(accountRoutes, { config, attempts: failures });
  await app.register(passwordResetRoutes, { config });
};

/** Who the caller is; the vocabulary of people (actors, roles, permissions). */
export const sessionModule: ServiceModule = {
  name: 'session',
  routes: [
    { plugin: sessionRoutes, options: (config) => ({ authMode: config.authMode }) },
    { plugin: accountScope, options: (config) => ({ config }) },
    { plugin: oidcRoutes, options: (config) => ({ config }) },
  ],
  schemas: [
    Actor,
    Role,
    Permission,
    Session,
    ...signInSchemas,
    ...oidcSchemas,
    ...accountSchemas,
    ...passwordResetSchemas,
  ],
};
