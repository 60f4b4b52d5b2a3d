import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './plan.events.js';
import './plan.problems.js';
import { entitlementRoutes } from './entitlement.routes.js';
import {
  Entitlement,
  Entitlements,
  EntitlementValue,
  ReplaceEntitlementsBody,
  SetEntitlementBody,
} from './entitlement.schemas.js';
import { planRoutes } from './plan.routes.js';
import { BillingPeriod, Plan, PlanCreate, PlanPage, PlanUpdate } from './plan.schemas.js';

/** Membership plans and their entitlements. */
export const plansModule: ServiceModule = {
  name: 'plans',
  routes: [planRoutes, entitlementRoutes],
  schemas: [
    Plan,
    PlanCreate,
    PlanUpdate,
    PlanPage,
    BillingPeriod,
    Entitlements,
    ReplaceEntitlementsBody,
    Entitlement,
    SetEntitlementBody,
    EntitlementValue,
  ],
  resourceTypes: ['plan', 'entitlements'],
};
