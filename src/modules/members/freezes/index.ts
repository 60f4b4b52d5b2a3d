import type { ServiceModule } from '../../../http/vocabulary/service-module.js';
import '../../freezes/freeze.events.js';
import '../../freezes/freeze.problems.js';
import { freezeRoutes } from './freeze.routes.js';
import { Freeze, FreezeCreate, FreezePage } from './freeze.schemas.js';

/** A member's dated freezes. */
export const freezesModule: ServiceModule = {
  name: 'freezes',
  routes: [freezeRoutes],
  schemas: [Freeze, FreezeCreate, FreezePage],
  resourceTypes: ['freeze'],
};
