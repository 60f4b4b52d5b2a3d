import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from './config.js';
import type { DialectName } from './db/database.js';
import { FieldError, Problem, ValidationProblem } from './http/responses.js';
import { purgeExpiredIdempotencyKeys } from './infrastructure/idempotency/idempotency.job.js';
import type { SecretBox } from './infrastructure/secrets/secret-box.js';
import type { BulkGovernor } from './jobs/bulk-governor.js';
import type { PeriodicJob } from './jobs/job-runner.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { AuditEvent, AuditEventList } from './modules/audit/audit.schemas.js';
import { eventRoutes } from './modules/events/event.routes.js';
import { Event, EventPage, EventTypeName } from './modules/events/event.schemas.js';
import { pruneOldEvents } from './modules/events/events.job.js';
import { freezeRoutes } from './modules/freezes/freeze.routes.js';
import { Freeze, FreezeCreate, FreezeList } from './modules/freezes/freeze.schemas.js';
import { MemberImportReport, MembersCsv } from './modules/members/csv/member-csv.schemas.js';
import { type ExportLimits, memberExportRoutes } from './modules/members/csv/member-export.routes.js';
import { memberImportRoutes } from './modules/members/csv/member-import.routes.js';
import { MemberImport, MemberImportList } from './modules/members/csv/member-import.schemas.js';
import type { UploadLimits } from './modules/members/csv/member-import.upload.js';
import { rowValidator } from './modules/members/csv/member-import.validator.js';
import {
  IMPORT_CHUNK_MS,
  IMPORT_LEASE_MS,
  IMPORT_MAX_ATTEMPTS,
  IMPORT_POLL_INTERVAL_MS,
  type ImportWorkerSettings,
} from './modules/members/csv/member-import.worker.js';
import { pruneMemberImports } from './modules/members/csv/member-imports.job.js';
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
import { type DeliveryWorkerSettings, RETRY_DELAYS_MS } from './modules/webhooks/delivery.worker.js';
import { webhookEndpointRoutes } from './modules/webhooks/webhook.routes.js';
import {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from './modules/webhooks/webhook.schemas.js';
import { webhookDeliveryRoutes } from './modules/webhooks/webhook-delivery.routes.js';
import { pruneOldDeliveries } from './modules/webhooks/webhooks.job.js';

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
  MemberImport,
  MemberImportList,
  Policy,
  PolicyPatch,
  AuditEvent,
  AuditEventList,
  Session,
  Event,
  EventPage,
  EventTypeName,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointList,
  WebhookDelivery,
  WebhookDeliveryList,
  Problem,
  ValidationProblem,
  FieldError,
];

/** The resource modules' routes, in one list. */
export async function registerModules(
  app: FastifyInstance,
  options: { authMode: 'api-key' | 'none'; memberImport: UploadLimits; memberExport: ExportLimits },
): Promise<void> {
  await app.register(planRoutes);
  await app.register(templateRoutes);
  await app.register(entitlementRoutes);
  await app.register(memberRoutes);
  await app.register(freezeRoutes);
  await app.register(memberImportRoutes, options.memberImport);
  await app.register(memberExportRoutes, options.memberExport);
  await app.register(policyRoutes);
  await app.register(auditRoutes);
  await app.register(sessionRoutes, { authMode: options.authMode });
  await app.register(eventRoutes);
  await app.register(webhookEndpointRoutes);
  await app.register(webhookDeliveryRoutes);
}

/** Every periodic job of the service, in one list; src/jobs/ runs each once across processes. */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [purgeExpiredIdempotencyKeys, applyMemberSchedule];

/** The periodic jobs with the settings they need. */
export function periodicJobs(config: Config): PeriodicJob[] {
  return [
    ...PERIODIC_JOBS,
    pruneOldEvents(config.eventsRetentionDays),
    pruneOldDeliveries(config.eventsRetentionDays),
    pruneMemberImports(config.memberImport.retentionDays),
  ];
}

/** The import worker's settings (it runs in serving processes, and in any that queues a job). */
export function importWorkerSettings(
  config: Config,
  dialect: DialectName,
  governor: BulkGovernor,
  clock: () => Date,
): ImportWorkerSettings {
  return {
    concurrency: config.memberImport.concurrency,
    pollIntervalMs: IMPORT_POLL_INTERVAL_MS,
    leaseMs: IMPORT_LEASE_MS,
    maxAttempts: IMPORT_MAX_ATTEMPTS,
    chunkMs: IMPORT_CHUNK_MS[dialect],
    chunkMaxRows: config.memberImport.chunkRows,
    governor,
    clock,
    maxRows: config.memberImport.maxRows,
    validator: rowValidator(),
    retentionMs: config.memberImport.retentionDays * 24 * 60 * 60 * 1000,
  };
}

/** The webhook delivery worker's settings (it runs in serving processes, beside the jobs). */
export function deliveryWorkerSettings(config: Config, secrets: SecretBox): DeliveryWorkerSettings {
  return {
    pollIntervalMs: config.eventsPollIntervalMs,
    concurrency: config.webhookConcurrency,
    retryDelaysMs: RETRY_DELAYS_MS,
    secrets,
    timeoutMs: config.webhookTimeoutMs,
    maxResponseBytes: config.webhookMaxResponseBytes,
    allowPrivate: config.webhookAllowPrivateUrls,
  };
}
