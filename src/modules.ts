import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { entitlementRoutes } from './modules/entitlements/entitlement.routes.js';
import { memberRoutes } from './modules/members/member.routes.js';
import { planRoutes } from './modules/plans/plan.routes.js';
import { policyRoutes } from './modules/policy/policy.routes.js';
import { templateRoutes } from './modules/templates/template.routes.js';

/** Every module of the service, in one list. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(planRoutes);
  await app.register(templateRoutes);
  await app.register(entitlementRoutes);
  await app.register(memberRoutes);
  await app.register(policyRoutes);
  await app.register(auditRoutes);
}
