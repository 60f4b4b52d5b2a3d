import type { App } from './app.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createFirstAdminKey } from './modules/api-keys/api-key.service.js';

/**
 * Starts the service and stops it gracefully on SIGTERM/SIGINT: stop
 * accepting connections, let in-flight requests finish within the grace
 * period, close the database.
 */
export async function startServer(config: Config): Promise<App> {
  const app = await buildApp(config);
  await announceAccess(app, config);
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

/** Says loudly when authentication is off, and prints the first admin key once. */
async function announceAccess(app: App, config: Config): Promise<void> {
  if (config.authMode === 'none') {
    app.log.warn('AUTH_MODE=none: authentication is OFF, every request acts as an admin of every facility');
    return;
  }
  if (config.adminApiKey) return;
  const secret = await createFirstAdminKey(app.db);
  if (secret) {
    process.stdout.write(
      `\nFirst start: created an admin API key for all facilities. It is shown only this once:\n\n  ${secret}\n\n` +
        'Send it as "Authorization: Bearer <key>". Manage keys with "facility-admin keys --help".\n\n',
    );
  }
}
