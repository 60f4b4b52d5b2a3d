import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './check-in.events.js';
import './check-in.problems.js';
import { checkInRoutes } from './check-in.routes.js';
import { CheckIn, CheckInPage, Occupancy, ReasonCodeSchema } from './check-in.schemas.js';

/** The log of the door: recorded access decisions, check-outs, and who is in. */
export const checkInsModule: ServiceModule = {
  name: 'check-ins',
  routes: [checkInRoutes],
  schemas: [ReasonCodeSchema, CheckIn, CheckInPage, Occupancy],
  resourceTypes: ['check_in'],
};
