import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './facility.events.js';
import './facility.problems.js';
import { facilityRoutes } from './facility.routes.js';
import { Facility, FacilityCreate, FacilityList, FacilityUpdate } from './facility.schemas.js';

/** Facilities by name: the sites an operator runs, each with its plans, members and policy. */
export const facilitiesModule: ServiceModule = {
  name: 'facilities',
  routes: [facilityRoutes],
  schemas: [Facility, FacilityCreate, FacilityUpdate, FacilityList],
  resourceTypes: ['facility'],
};
