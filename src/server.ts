import cluster from 'node:cluster';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { App } from './app.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { systemClock } from './core/clock.js';
import { type Db, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createFirstAdminKey } from './infrastructure/api-keys/api-key.service.js';
import { firstOwnerLink } from './modules/staff/staff-sign-in.service.js';
import { loadTemplateCatalog } from './modules/templates/template.catalog.js';

/**
 * Serves with one process, or with WORKERS processes sharing the port
 * (node:cluster). With workers the primary migrates the database and creates
 * the first key before forking, so workers never race on either.
 */
export async function serve(config: Config): Promise<void> {
  if (config.workers <= 1) {
    const app = await startServer(config);
    await announceAccess(app.db, config, (message) => app.log.warn(message));
    return;
  }
  if (cluster.isPrimary) {
    // What every worker would fail on is checked here once, so that it is said once.
    loadTemplateCatalog(config.templatesFile);
    // Before the database is prepared, which prints the console's URL: a start that cannot
    // listen must not first show an address that answers nothing.
    await checkCanListen(config);
    await prepareDatabase(config);
    superviseWorkers(config);
    return;
  }
  await startServer(config);
}

/**
 * Starts one server and stops it gracefully on SIGTERM/SIGINT: stop accepting
 * connections, let in-flight requests finish within the grace period, close
 * the database.
 */
export async function startServer(config: Config): Promise<App> {
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error('in-flight requests did not finish within the shutdown grace period');
      process.exit(1);
    }, config.shutdownGraceMs);
    deadline.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return app;
}

async function prepareDatabase(config: Config): Promise<void> {
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    await announceAccess(database.db, config);
  } finally {
    await database.close();
  }
}

/**
 * Fails the start in the primary, with one message, when the workers could
 * not listen (port in use, unknown HOST); otherwise each worker would print
 * the same failure.
 */
async function checkCanListen(config: Config): Promise<void> {
  const probe = createServer();
  probe.listen(config.port, config.host);
  await Promise.race([
    once(probe, 'listening'),
    once(probe, 'error').then(([error]) => Promise.reject(error)),
  ]);
  probe.close();
  await once(probe, 'close');
}

/** Forks the workers, replaces one that dies, and passes shutdown signals on. */
function superviseWorkers(config: Config): void {
  let stopping = false;
  let started = false;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('listening', () => {
    started = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!started) {
      // No worker has started yet: a replacement would fail the same way, forever.
      console.error(`worker ${worker.process.pid} failed to start (${signal ?? code}); stopping`);
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exit(1);
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 1000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * Says loudly when authentication is off, and prints the first admin key once.
 * The warning goes to stderr whatever LOG_LEVEL is (an operator who silenced
 * the log must still hear it), and to the log when there is one.
 */
async function announceAccess(db: Db, config: Config, log?: (message: string) => void): Promise<void> {
  const consoleLine = config.console ? `Console: ${consoleUrl(config)}\n` : '';
  if (config.authMode === 'none') {
    const warning = 'AUTH_MODE=none: authentication is OFF, every request acts as an admin of every facility';
    process.stderr.write(`\nWARNING: ${warning}\n\n`);
    log?.(warning);
    if (consoleLine) process.stdout.write(`${consoleLine}\n`);
    return;
  }
  const secret = config.adminApiKey ? undefined : await createFirstAdminKey(db, systemClock());
  if (secret) {
    process.stdout.write(
      `\nFirst start: created an admin API key for all facilities. It is shown only this once:\n\n  ${secret}\n\n` +
        'Send it as "Authorization: Bearer <key>". Manage keys with "facility-admin keys --help".\n' +
        `${consoleLine ? `Sign in to the console with it: ${consoleUrl(config)}\n` : ''}\n`,
    );
  } else if (consoleLine) {
    process.stdout.write(`${consoleLine}\n`);
  }
  const owner = await firstOwnerLink(db, config.people.invitationValidMs, new Date());
  if (owner) {
    const base = config.people.publicUrl ?? consoleUrl(config).replace(/\/console\/$/, '');
    process.stdout.write(
      `No staff user yet: create the first owner (every facility) with this one-time link, valid until ${owner.expiresAt}:\n\n` +
        `  ${base}/console/#/link?purpose=first_owner&token=${owner.secret}\n\n` +
        'or with "facility-admin staff create-owner --email <address>".\n\n',
    );
  }
}

/** The console's address as a browser on this machine reaches it. */
function consoleUrl(config: Config): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${config.port}${config.basePath}/console/`;
}
