import { availableParallelism } from 'node:os';

/**
 * The only place that reads the environment. Everything else receives a
 * `Config` value, so tests and the CLI can build an app from plain objects.
 */
export type AuthMode = 'api-key' | 'none';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  adminApiKey: string | undefined;
  authMode: AuthMode;
  basePath: string;
  logLevel: string;
  bodyLimitBytes: number;
  templatesFile: string | undefined;
  shutdownGraceMs: number;
  rateLimitPerMinute: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so that several deployments can share one Redis. */
  redisKeyPrefix: string;
  rateLimitWindowMs: number;
  /** Processes serving on one port. */
  workers: number;
  /** Bytes of JSON that the items of one list page take at most (a page always holds one item). */
  pageMaxBytes: number;
  /** Open connections a process accepts at once; further ones are closed as they arrive. */
  maxConnections: number;
  /** Bytes of responses that clients have not yet taken, all connections together. */
  unsentMaxBytes: number;
  /** A connection on which nothing moves this long (no request bytes in, no response write done) is closed. */
  stallTimeoutMs: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const authMode = env.AUTH_MODE ?? 'api-key';
  if (authMode !== 'api-key' && authMode !== 'none') {
    throw new ConfigError(`AUTH_MODE must be "api-key" or "none", got "${authMode}"`);
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/facility-admin.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
  }
  const adminApiKey = env.ADMIN_API_KEY || undefined;
  // It is sent as "Authorization: Bearer <key>": spaces or other characters could never match.
  if (adminApiKey !== undefined && !/^[\x21-\x7e]{1,512}$/.test(adminApiKey)) {
    throw new ConfigError('ADMIN_API_KEY must be 1 to 512 printable ASCII characters without spaces');
  }
  const workers = env.WORKERS === 'auto' ? availableParallelism() : readInteger(env, 'WORKERS', 1, 1, 64);
  if (workers > 1 && databaseUrl === 'sqlite::memory:') {
    throw new ConfigError(
      'WORKERS above 1 needs a shared database: an in-memory SQLite database is per process',
    );
  }
  return {
    port: readInteger(env, 'PORT', 3000, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl,
    adminApiKey,
    authMode,
    basePath: normalizeBasePath(env.BASE_PATH ?? ''),
    logLevel,
    bodyLimitBytes: readInteger(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    templatesFile: env.TEMPLATES_FILE || undefined,
    shutdownGraceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    rateLimitPerMinute: readInteger(env, 'RATE_LIMIT_PER_MINUTE', 3000, 0, 10_000_000),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'facility-admin:',
    rateLimitWindowMs: readInteger(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000),
    workers,
    pageMaxBytes: readInteger(env, 'PAGE_MAX_BYTES', 256 * 1024, 16 * 1024, 64 * 1024 * 1024),
    maxConnections: readInteger(env, 'MAX_CONNECTIONS', 256, 1, 1_000_000),
    unsentMaxBytes: readInteger(
      env,
      'UNSENT_MAX_BYTES',
      16 * 1024 * 1024,
      1024 * 1024,
      4 * 1024 * 1024 * 1024,
    ),
    stallTimeoutMs: readInteger(env, 'STALL_TIMEOUT_MS', 30_000, 1000, 3_600_000),
  };
}

function readInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function normalizeBasePath(raw: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new ConfigError(`BASE_PATH must look like "/api/v1", got "${raw}"`);
  }
  return trimmed;
}
