import { setTimeout as sleep } from 'node:timers/promises';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.js';
import { type Clock, systemClock } from './core/clock.js';
import { openChangeCounter } from './db/change-counter.js';
import { type Database, type Db, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerAuthentication } from './http/pipeline/auth.js';
import { registerAuthFailureLimit } from './http/pipeline/auth-failure-limit.js';
import { limitClients } from './http/pipeline/client-limits.js';
import { registerConsole } from './http/pipeline/console.js';
import {
  answerClientError,
  answerFrameworkError,
  MAX_PARAM_LENGTH,
  registerErrorHandler,
} from './http/pipeline/error-handler.js';
import { registerJsonBodyParser } from './http/pipeline/json-body.js';
import { openLogDestination } from './http/pipeline/log-destination.js';
import { registerMetrics } from './http/pipeline/metrics.js';
import { registerNotFoundHandler } from './http/pipeline/not-found.js';
import { docsPageOptions, openApiOptions } from './http/pipeline/openapi.js';
import { registerPermissions } from './http/pipeline/permissions.js';
import { registerRateLimit } from './http/pipeline/rate-limit.js';
import { openSharedCounter } from './http/pipeline/rate-limit-redis.js';
import { requestIdFor } from './http/pipeline/request-id.js';
import { type LogSettings, lazyRequestLogger, registerRequestLog } from './http/pipeline/request-log.js';
import { registerApiResponseHeaders, registerResponseHeaders } from './http/pipeline/response-headers.js';
import { createValidatorCompiler, refuseUndeclaredQuery } from './http/pipeline/validation.js';
import { createKeyVerifier } from './infrastructure/api-keys/api-key.service.js';
import { healthRoutes } from './infrastructure/health/health.routes.js';
import { registerIdempotency } from './infrastructure/idempotency/idempotency.hooks.js';
import { type SecretBox, secretBox } from './infrastructure/secrets/secret-box.js';
import { loadSecretsKey } from './infrastructure/secrets/secrets-key.js';
import { type BulkGovernor, createBulkGovernor } from './jobs/bulk-governor.js';
import { startJobs } from './jobs/job-runner.js';
import { createImportWorker } from './modules/members/csv/member-import.worker.js';
import { principalOfSession } from './modules/staff/staff-sign-in.service.js';
import { loadTemplateCatalog, type TemplateCatalog } from './modules/templates/template.catalog.js';
import { type DeliveryWorker, startDeliveryWorker } from './modules/webhooks/delivery.worker.js';
import {
  deliveryWorkerSettings,
  importWorkerSettings,
  namedSchemas,
  periodicJobs,
  registerModules,
} from './modules.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The settings the service was built with (read once, in src/config.ts). */
    config: Config;
    templates: TemplateCatalog;
    /** Encrypts stored secrets; undefined when there is no key (PostgreSQL without SECRETS_KEY). */
    secrets: SecretBox | undefined;
    /** PAGE_MAX_BYTES: what the items of one list page take at most. */
    pageMaxBytes: number;
    /** The service's clock (BuildOptions.now): "today" in a facility, the schedule, write times. */
    now: Clock;
    /** Shares the process between ordinary requests and bulk work (import chunks, export pages). */
    bulkGovernor: BulkGovernor;
  }
}

export type App = FastifyInstance;

const LOG_FLUSH_WAIT_MS = 2000;

export interface BuildOptions {
  /** A database opened by the caller (tests share one); otherwise DATABASE_URL is opened. */
  database?: Database;
  /** Overrides the log settings: off, or a level and a stream (tests); otherwise LOG_LEVEL to stdout. */
  logger?: LogSettings;
  /** The clock every date-driven rule reads; the system clock unless a test moves its own. */
  now?: Clock;
  /** The clock the rate limit's windows are aligned to (ms since the epoch); Date.now unless a test moves its own. */
  rateLimitClock?: () => number;
}

/** Builds the whole service from a config. The server, the CLI and the tests all start here. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const templates = loadTemplateCatalog(config.templatesFile);
  const database = options.database ?? openDatabase(config.databaseUrl, { checkpointInBackground: true });
  const ownsDatabase = options.database === undefined;
  await migrateToLatest(database.db);

  const logDestination = options.logger === undefined ? openLogDestination() : undefined;
  const logger: LogSettings = logDestination
    ? { level: config.logLevel, stream: logDestination.stream }
    : (options.logger ?? false);
  const app = Fastify({
    logger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // One line per request is written by registerRequestLog instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    // Long ids must reach validation (400), not fall through to 404.
    // /plans/ is /plans, not a plan with an empty id.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    bodyLimit: config.bodyLimitBytes,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('db', database.db);
  app.decorate('config', config);
  const secretsKey = loadSecretsKey(config);
  app.decorate('secrets', secretsKey && secretBox(secretsKey));
  app.decorate('templates', templates);
  app.decorate('pageMaxBytes', config.pageMaxBytes);
  const clock = options.now ?? systemClock;
  app.decorate('now', clock);
  const keyChanges = openChangeCounter(database, 'api_keys_changed');
  app.addHook('onClose', () => keyChanges.close());
  if (ownsDatabase) app.addHook('onClose', () => database.close());

  // Every request that arrives is ordinary work that bulk work (imports, exports) makes room for.
  const governor = createBulkGovernor({ share: config.bulkWorkShare / 100 });
  app.decorate('bulkGovernor', governor);
  app.addHook('onRequest', (_request, _reply, done) => {
    governor.noteRequest();
    done();
  });

  limitClients(app, config);
  registerJsonBodyParser(app, { maxDepth: config.jsonMaxDepth, maxKeys: config.jsonMaxKeys });
  const schemas = namedSchemas();
  app.setValidatorCompiler(createValidatorCompiler(schemas));
  for (const schema of schemas) app.addSchema(schema);

  // Background work runs in a serving process only, not in a test's or the CLI's app (the import
  // worker also in any process that queues a job); it stops before anything closes the database
  // (preClose runs before every onClose).
  let jobs: ReturnType<typeof startJobs> | undefined;
  let deliveries: DeliveryWorker | undefined;
  const imports = createImportWorker(
    database.db,
    importWorkerSettings(config, database.dialect, governor, clock),
    app.log,
  );
  app.decorate('importWorker', imports);
  app.addHook('onListen', async () => {
    jobs ??= startJobs(database.db, periodicJobs(config), app.log, clock);
    imports.start();
    if (app.secrets)
      deliveries ??= startDeliveryWorker(database.db, deliveryWorkerSettings(config, app.secrets), app.log);
    else app.log.warn('webhooks are off: SECRETS_KEY is not set (it is required on PostgreSQL)');
  });
  app.addHook('preClose', async () => {
    await Promise.all([jobs?.stop(), deliveries?.stop(), imports.stop()]);
  });
  registerResponseHeaders(app);
  registerRequestLog(app, logger);
  registerErrorHandler(app, { maxErrors: config.problemMaxErrors });
  registerNotFoundHandler(app);
  const sharedCounter = await openSharedCounter(app, config);

  await app.register(swagger, openApiOptions(config));
  await app.register(
    async (scoped) => {
      // The documentation's scope: swagger-ui sets its own Content-Security-Policy and caching.
      await scoped.register(swaggerUi, docsPageOptions);
      // The front door: a browser pointed at the service lands on its documentation.
      scoped.get('/', { schema: { hide: true } }, (_request, reply) =>
        reply.redirect(`${config.basePath}/docs`, 302),
      );
      // The API's scope: its policies (never cached, nothing to run) hold here and only here.
      await scoped.register(async (api) => {
        registerApiResponseHeaders(api);
        api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
        registerMetrics(api, {
          pool: database.poolStats,
          droppedLogLines: logDestination?.droppedLines,
          jobs: () => jobs?.stats() ?? [],
          redisAvailable: sharedCounter?.available,
        });
        await api.register(healthRoutes, { redisAvailable: sharedCounter?.available });
        await api.register(async (resources) => {
          registerAuthFailureLimit(resources, config, sharedCounter);
          registerAuthentication(
            resources,
            config,
            createKeyVerifier(database.db, keyChanges, config.adminApiKey),
            {
              principalFor: (secret) =>
                principalOfSession(
                  database.db,
                  secret,
                  { idleMs: config.people.sessionIdleMs, maxMs: config.people.sessionMaxMs },
                  app.now(),
                ),
            },
          );
          registerPermissions(resources);
          registerRateLimit(resources, config, sharedCounter, options.rateLimitClock);
          registerIdempotency(resources, { maxResponseBytes: config.idempotencyMaxResponseBytes });
          refuseUndeclaredQuery(resources);
          await resources.register(registerModules);
        });
      });
    },
    { prefix: config.basePath },
  );
  // The web console (packages/console), a static single-page app with its own CSP and caching.
  if (config.console && !(await registerConsole(app, config.basePath))) {
    app.log.warn('the console is not built (npm run build): /console/ is not served');
  }

  // Last, so that the lines logged while the rest closes are written before the process exits;
  // at most LOG_FLUSH_WAIT_MS, so that a log reader that stopped reading does not hold the stop.
  if (logDestination) {
    app.addHook('onClose', () =>
      Promise.race([logDestination.flushed(), sleep(LOG_FLUSH_WAIT_MS, undefined, { ref: false })]),
    );
  }
  await app.ready();
  return app as unknown as App;
}
