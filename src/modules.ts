import type { FastifyInstance } from 'fastify';
import { purgeExpiredIdempotencyKeys } from './infrastructure/idempotency/idempotency.job.js';
import type { PeriodicJob } from './jobs/job-runner.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { memberRoutes } from './modules/members/member.routes.js';
import { entitlementRoutes } from './modules/plans/entitlement.routes.js';
import { planRoutes } from './modules/plans/plan.routes.js';
import { policyRoutes } from './modules/policy/policy.routes.js';
import { templateRoutes } from './modules/templates/template.routes.js';

/** The resource modules' routes, in one list. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(planRoutes);
  await app.register(templateRoutes);
  await app.register(entitlementRoutes);
  await app.register(memberRoutes);
  await app.register(policyRoutes);
  await app.register(auditRoutes);
}

/** Every periodic job of the service, in one list; src/jobs/ runs each once across processes. */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [purgeExpiredIdempotencyKeys];
