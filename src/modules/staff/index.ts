import { RoleGrant } from '../../http/vocabulary/people-schemas.js';
import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './staff.audit.js';
import './staff.problems.js';
import { staffRoutes } from './staff.routes.js';
import { StaffInvite, StaffLink, StaffList, StaffUpdate, StaffUser } from './staff.schemas.js';

/** The people who work at the facilities and sign in to the console. */
export const staffModule: ServiceModule = {
  name: 'staff',
  routes: [{ plugin: staffRoutes, options: (config) => ({ config }) }],
  schemas: [RoleGrant, StaffLink, StaffUser, StaffInvite, StaffUpdate, StaffList],
  resourceTypes: ['staff_user'],
};
