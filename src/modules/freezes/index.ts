import type { ServiceModule } from '../../http/service-module.js';
import '../schedule/freeze.events.js';
import '../schedule/freeze.problems.js';
import { freezeRoutes } from './freeze.routes.js';
import { Freeze, FreezeCreate, FreezePage } from './freeze.schemas.js';

/** A member's dated freezes. */
export const freezesModule: ServiceModule = {
  name: 'freezes',
  routes: [freezeRoutes],
  schemas: [Freeze, FreezeCreate, FreezePage],
  resourceTypes: ['freeze'],
};
