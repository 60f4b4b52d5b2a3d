import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { FieldError, Problem, ValidationProblem } from './http/responses.js';
import { purgeExpiredIdempotencyKeys } from './infrastructure/idempotency/idempotency.job.js';
import type { PeriodicJob } from './jobs/job-runner.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { AuditEvent, AuditEventList } from './modules/audit/audit.schemas.js';
import { freezeRoutes } from './modules/freezes/freeze.routes.js';
import { Freeze, FreezeCreate, FreezeList } from './modules/freezes/freeze.schemas.js';
import { type MemberImportLimits, memberCsvRoutes } from './modules/members/csv/member-csv.routes.js';
import { MemberImportReport, MembersCsv } from './modules/members/csv/member-csv.schemas.js';
import { memberRoutes } from './modules/members/member.routes.js';
import {
  Member,
  MemberCreate,
  MemberList,
  MemberPatch,
  MemberRole,
  MemberStatus,
} from './modules/members/member.schemas.js';
import { applyMemberSchedule } from './modules/members/member-schedule.job.js';
import { entitlementRoutes } from './modules/plans/entitlement.routes.js';
import {
  Entitlement,
  EntitlementCollection,
  EntitlementValue,
  ReplaceEntitlementsBody,
  SetEntitlementBody,
} from './modules/plans/entitlement.schemas.js';
import { planRoutes } from './modules/plans/plan.routes.js';
import { BillingPeriod, Plan, PlanCreate, PlanList, PlanPatch } from './modules/plans/plan.schemas.js';
import { policyRoutes } from './modules/policy/policy.routes.js';
import { Policy, PolicyPatch } from './modules/policy/policy.schemas.js';
import { sessionRoutes } from './modules/session/session.routes.js';
import { Session } from './modules/session/session.schemas.js';
import { templateRoutes } from './modules/templates/template.routes.js';
import { Template, TemplateList } from './modules/templates/template.schemas.js';

/**
 * Every named schema, in the order the OpenAPI document lists them: each is
 * registered once (app.addSchema), so routes and other schemas refer to it
 * by its `$id` and it is one component of the document.
 */
export const NAMED_SCHEMAS: readonly TSchema[] = [
  Plan,
  PlanCreate,
  PlanPatch,
  PlanList,
  BillingPeriod,
  Template,
  TemplateList,
  EntitlementCollection,
  ReplaceEntitlementsBody,
  Entitlement,
  SetEntitlementBody,
  EntitlementValue,
  Member,
  MemberCreate,
  MemberPatch,
  MemberList,
  MemberStatus,
  MemberRole,
  Freeze,
  FreezeCreate,
  FreezeList,
  MembersCsv,
  MemberImportReport,
  Policy,
  PolicyPatch,
  AuditEvent,
  AuditEventList,
  Session,
  Problem,
  ValidationProblem,
  FieldError,
];

/** The resource modules' routes, in one list. */
export async function registerModules(
  app: FastifyInstance,
  options: { authMode: 'api-key' | 'none'; memberImport: MemberImportLimits },
): Promise<void> {
  await app.register(planRoutes);
  await app.register(templateRoutes);
  await app.register(entitlementRoutes);
  await app.register(memberRoutes);
  await app.register(freezeRoutes);
  await app.register(memberCsvRoutes, options.memberImport);
  await app.register(policyRoutes);
  await app.register(auditRoutes);
  await app.register(sessionRoutes, { authMode: options.authMode });
}

/** Every periodic job of the service, in one list; src/jobs/ runs each once across processes. */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [purgeExpiredIdempotencyKeys, applyMemberSchedule];
