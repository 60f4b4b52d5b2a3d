import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from './config.js';
import type { DialectName } from './db/database.js';
import { problemSchemas } from './http/vocabulary/responses.js';
import type { ServiceModule } from './http/vocabulary/service-module.js';
import { purgeExpiredIdempotencyKeys } from './infrastructure/idempotency/idempotency.job.js';
import type { SecretBox } from './infrastructure/secrets/secret-box.js';
import type { BulkGovernor } from './jobs/bulk-governor.js';
import type { PeriodicJob } from './jobs/job-runner.js';
import { accessDecisionsModule } from './modules/access-decisions/index.js';
import { apiKeysModule } from './modules/api-keys/index.js';
import { auditResourceTypeSchema } from './modules/audit/audit.schemas.js';
import { auditModule } from './modules/audit/index.js';
import { checkInsModule } from './modules/check-ins/index.js';
import { eventsModule } from './modules/events/index.js';
import { facilitiesModule } from './modules/facilities/index.js';
import { memberCsvModule } from './modules/members/csv/index.js';
import { rowValidator } from './modules/members/csv/member-import.validator.js';
import {
  IMPORT_CHUNK_MS,
  IMPORT_LEASE_MS,
  IMPORT_MAX_ATTEMPTS,
  IMPORT_POLL_INTERVAL_MS,
  type ImportWorkerSettings,
} from './modules/members/csv/member-import.worker.js';
import { freezesModule } from './modules/members/freezes/index.js';
import { membersModule } from './modules/members/index.js';
import { plansModule } from './modules/plans/index.js';
import { policyModule } from './modules/policy/index.js';
import { sessionModule } from './modules/session/index.js';
import { staffModule } from './modules/staff/index.js';
import { templatesModule } from './modules/templates/index.js';
import { type DeliveryWorkerSettings, RETRY_DELAYS_MS } from './modules/webhooks/delivery.worker.js';
import { webhooksModule } from './modules/webhooks/index.js';

/** Every module of the service, in the order the OpenAPI document lists them: adding one is one line. */
export const MODULES: readonly ServiceModule[] = [
  facilitiesModule,
  plansModule,
  templatesModule,
  membersModule,
  memberCsvModule,
  freezesModule,
  policyModule,
  checkInsModule,
  accessDecisionsModule,
  auditModule,
  sessionModule,
  staffModule,
  apiKeysModule,
  eventsModule,
  webhooksModule,
];

/**
 * Every named schema: each module's, the vocabulary every module adds to
 * (the audit trail's resource types, the problems' codes), in the order the
 * OpenAPI document lists them. Each is registered once (app.addSchema), so
 * routes and other schemas refer to it by its `$id`.
 */
export function namedSchemas(): readonly TSchema[] {
  // Made once per process: the validator keeps each schema it was given (src/http/pipeline/validation.ts), and tests build many apps.
  allNamedSchemas ??= [
    ...MODULES.flatMap((module) =>
      typeof module.schemas === 'function' ? module.schemas() : module.schemas,
    ),
    // API keys (src/infrastructure/api-keys/) are journaled too, audit only.
    auditResourceTypeSchema([...MODULES.flatMap((module) => module.resourceTypes ?? []), 'api_key']),
    ...problemSchemas(),
  ];
  return allNamedSchemas;
}
let allNamedSchemas: readonly TSchema[] | undefined;

/** The modules' routes, registered in the authenticated API scope. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  for (const module of MODULES) {
    for (const routes of module.routes) {
      if (typeof routes === 'function') await app.register(routes);
      else await app.register(routes.plugin, routes.options(app.config));
    }
  }
}

/** Every periodic job of the service: the infrastructure's and the modules', with the settings they need. */
export function periodicJobs(config: Config): PeriodicJob[] {
  return [purgeExpiredIdempotencyKeys, ...MODULES.flatMap((module) => module.jobs?.(config) ?? [])];
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
