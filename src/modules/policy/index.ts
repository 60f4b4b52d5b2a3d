import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './policy.events.js';
import { policyRoutes } from './policy.routes.js';
import { Policy, PolicyUpdate } from './policy.schemas.js';

/** A facility's one policy. */
export const policyModule: ServiceModule = {
  name: 'policy',
  routes: [policyRoutes],
  schemas: [Policy, PolicyUpdate],
  resourceTypes: ['policy'],
};
