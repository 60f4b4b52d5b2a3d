import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import { accessDecisionRoutes } from './access-decision.routes.js';
import {
  AccessDecision,
  AccessDecisionRequest,
  AccessReason,
  VisitBalance,
} from './access-decision.schemas.js';

/** Access decisions at the door: who may come in, why not, recorded as check-ins (src/modules/check-ins/). */
export const accessDecisionsModule: ServiceModule = {
  name: 'access-decisions',
  routes: [accessDecisionRoutes],
  schemas: [AccessReason, VisitBalance, AccessDecisionRequest, AccessDecision],
};
