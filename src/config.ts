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
  /** JSON bodies: deepest nesting of objects and arrays. */
  jsonMaxDepth: number;
  /** JSON bodies: object keys and array items, counted over the whole body. */
  jsonMaxKeys: number;
  /** Problem documents list at most this many field errors, and say how many more there were. */
  problemMaxErrors: number;
  /** Idempotency records keep answers up to this size; a larger answer is not kept. */
  idempotencyMaxResponseBytes: number;
  templatesFile: string | undefined;
  shutdownGraceMs: number;
  rateLimitPerMinute: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so that several deployments can share one Redis. */
  redisKeyPrefix: string;
  rateLimitWindowMs: number;
  /** Failed authentications (401, 403) per client address and window before it is refused (0: off). */
  authFailureLimit: number;
  authFailureWindowMs: number;
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
  /** Whether the web console is served at /console/ (CONSOLE=off turns it off). */
  console: boolean;
  /**
   * CSV imports of members, run as jobs: the largest body, the most rows, jobs a process runs at once,
   * the most rows one chunk (transaction) takes, uploads a process receives at once, jobs that may
   * wait in all, and how many days a finished job's report is kept.
   */
  memberImport: {
    maxBytes: number;
    maxRows: number;
    concurrency: number;
    chunkRows: number;
    uploads: number;
    maxQueued: number;
    uploadTimeoutMs: number;
    retentionDays: number;
  };
  /** CSV exports of members: how many a process streams at once, and one API key. */
  memberExport: { concurrency: number; perKey: number };
  /** Percent of a process's time bulk work (import chunks, export pages) may take while requests arrive. */
  bulkWorkShare: number;
  /** Events older than this many days are pruned from the feed (docs/webhooks.md). */
  eventsRetentionDays: number;
  /** How often a process looks for new events while feed readers long-poll, and the delivery worker looks for work. */
  eventsPollIntervalMs: number;
  /**
   * Feed readers of one process that may long-poll at once, at most half of
   * MAX_CONNECTIONS (its default), so that plain requests always find a
   * connection; more are answered 429.
   */
  eventsMaxWaiters: number;
  /** Feed reads that one API key (one client address with AUTH_MODE=none) may hold waiting at once; more are 429. */
  eventsMaxWaitersPerKey: number;
  /**
   * SECRETS_KEY, 32 bytes (64 hex digits or base64): encrypts webhook signing
   * secrets. Unset: on SQLite a key file beside the database is made and used;
   * on PostgreSQL webhook endpoints cannot be managed or delivered to.
   */
  secretsKey: Buffer | undefined;
  /** Webhook URLs may be http (otherwise https only). */
  webhookAllowHttp: boolean;
  /** Webhook deliveries may go to private, loopback, link-local and metadata addresses. */
  webhookAllowPrivateUrls: boolean;
  /** A delivery that has no full answer within this time has failed. */
  webhookTimeoutMs: number;
  /** Bytes of a receiver's answer that are read and kept (the rest is not read). */
  webhookMaxResponseBytes: number;
  /** Deliveries a process sends at once. */
  webhookConcurrency: number;
  /** Webhook endpoints one facility may have. */
  webhookMaxEndpoints: number;
  /**
   * Outgoing e-mail (invitations, password resets): SMTP_URL (its password is never logged nor
   * echoed in a configuration error) and MAIL_FROM. Unset SMTP_URL: no e-mail is sent, and the
   * console shows the link to copy instead.
   */
  mail: MailSettings | undefined;
  /** Console sign-in through the facility's OpenID Connect provider; unset OIDC_ISSUER: none. */
  oidc: OidcSettings | undefined;
  /** Staff sign-in, sessions and one-time links (docs/security.md, "People"). */
  people: PeopleSettings;
}

export interface PeopleSettings {
  /** The service's address as people reach it (links in e-mails, the OpenID redirect); PUBLIC_URL. */
  publicUrl: string | undefined;
  /** A session unused this long ends (SESSION_IDLE_MINUTES). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not (SESSION_MAX_HOURS). */
  sessionMaxMs: number;
  /** Invitation links (INVITATION_VALID_DAYS) and password reset links (PASSWORD_RESET_VALID_MINUTES). */
  invitationValidMs: number;
  passwordResetValidMs: number;
  /** Failed sign-ins of one account per AUTH_FAILURE_WINDOW_MS before it is refused (SIGN_IN_FAILURES_PER_ACCOUNT). */
  signInFailuresPerAccount: number;
}

export interface MailSettings {
  /** smtp://[user:password@]host[:port][?options] or smtps://… (TLS from the start, port 465). */
  smtpUrl: string;
  /** The From of every message: an address, or "Name <address>". */
  from: string;
}

export interface OidcSettings {
  /** The provider's Issuer Identifier: https, or http on a loopback address (tests, local use). */
  issuer: string;
  clientId: string;
  /** Never logged nor echoed in a configuration error. */
  clientSecret: string;
  /** The console's button. */
  buttonLabel: string;
}

/** Every invalid setting at once, so that an operator fixes them in one round. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('; '));
    this.name = 'ConfigError';
    this.problems = list;
  }
}

const PROBLEMS = Symbol('problems');
/** The environment, with the problems found in it so far: each reader adds to them rather than throw. */
type Env = NodeJS.ProcessEnv & { [PROBLEMS]: string[] };

function invalid(env: Env, problem: string): void {
  env[PROBLEMS].push(problem);
}

/**
 * WORKERS=auto (the default on SQLite) runs one process per core, at most this many:
 * each process holds its own memory (how much: docs/operations.md) and up to 10 PostgreSQL
 * connections.
 */
export const AUTO_WORKERS_CAP = 4;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads every setting; throws one ConfigError that lists every invalid one. */
export function loadConfig(processEnv: NodeJS.ProcessEnv = process.env): Config {
  const env: Env = { ...processEnv, [PROBLEMS]: [] };
  const authMode = (env.AUTH_MODE ?? 'api-key') as AuthMode;
  if (authMode !== 'api-key' && authMode !== 'none') {
    invalid(env, `AUTH_MODE must be "api-key" or "none", got "${authMode}"`);
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    invalid(env, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const databaseUrl = env.DATABASE_URL ?? 'sqlite:./data/facility-admin.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    invalid(env, 'DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
  }
  const adminApiKey = env.ADMIN_API_KEY || undefined;
  // It is sent as "Authorization: Bearer <key>": spaces or other characters could never match.
  if (adminApiKey !== undefined && !/^[\x21-\x7e]{1,512}$/.test(adminApiKey)) {
    invalid(env, 'ADMIN_API_KEY must be 1 to 512 printable ASCII characters without spaces');
  }
  const inMemory = databaseUrl === 'sqlite::memory:';
  // Unset: auto on SQLite, where a second process pays; one on PostgreSQL, whose server a second process
  // competes with for the machine's cores (docs/decisions.md, "WORKERS").
  const workersSetting = env.WORKERS ?? (databaseUrl.startsWith('sqlite:') ? 'auto' : undefined);
  const workers =
    workersSetting === 'auto'
      ? // An in-memory database is per process: auto means one there.
        inMemory
        ? 1
        : Math.min(availableParallelism(), AUTO_WORKERS_CAP)
      : readInteger(env, 'WORKERS', 1, 1, 64);
  if (workers > 1 && inMemory) {
    invalid(env, 'WORKERS above 1 needs a shared database: an in-memory SQLite database is per process');
  }
  const consoleSetting = env.CONSOLE ?? 'on';
  if (consoleSetting !== 'on' && consoleSetting !== 'off') {
    invalid(env, `CONSOLE must be "on" or "off", got "${consoleSetting}"`);
  }
  const maxConnections = readInteger(env, 'MAX_CONNECTIONS', 256, 1, 1_000_000);
  const config: Config = {
    port: readInteger(env, 'PORT', 3000, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl,
    adminApiKey,
    authMode,
    basePath: normalizeBasePath(env, env.BASE_PATH ?? ''),
    logLevel,
    bodyLimitBytes: readInteger(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    // The minimums leave room for every valid body (100 entitlements are 201 keys, 3 levels deep)
    // and every created resource (at most about 16 KB).
    jsonMaxDepth: readInteger(env, 'JSON_MAX_DEPTH', 32, 4, 1000),
    jsonMaxKeys: readInteger(env, 'JSON_MAX_KEYS', 1000, 256, 1_000_000),
    problemMaxErrors: readInteger(env, 'PROBLEM_MAX_ERRORS', 100, 1, 10_000),
    memberImport: {
      maxBytes: readInteger(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 256 * 1024 * 1024),
      maxRows: readInteger(env, 'IMPORT_MAX_ROWS', 50_000, 1, 1_000_000),
      concurrency: readInteger(env, 'IMPORT_CONCURRENCY', 2, 1, 64),
      // Not a setting: a chunk ends by its time (member-import-chunks.ts) long before this many rows.
      chunkRows: 1000,
      uploads: readInteger(env, 'IMPORT_UPLOADS', 4, 1, 256),
      maxQueued: readInteger(env, 'IMPORT_MAX_QUEUED', 20, 1, 10_000),
      uploadTimeoutMs: readInteger(env, 'IMPORT_UPLOAD_TIMEOUT_MS', 600_000, 1000, 3_600_000),
      retentionDays: readInteger(env, 'IMPORT_REPORT_RETENTION_DAYS', 7, 1, 3650),
    },
    memberExport: {
      concurrency: readInteger(env, 'EXPORT_CONCURRENCY', 8, 1, 1000),
      perKey: readInteger(env, 'EXPORTS_PER_KEY', 4, 1, 1000),
    },
    bulkWorkShare: readInteger(env, 'BULK_WORK_SHARE', 50, 10, 100),
    idempotencyMaxResponseBytes: readInteger(
      env,
      'IDEMPOTENCY_MAX_RESPONSE_BYTES',
      64 * 1024,
      32 * 1024,
      16 * 1024 * 1024,
    ),
    templatesFile: env.TEMPLATES_FILE || undefined,
    shutdownGraceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    rateLimitPerMinute: readInteger(env, 'RATE_LIMIT_PER_MINUTE', 3000, 0, 10_000_000),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'facility-admin:',
    rateLimitWindowMs: readInteger(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 3_600_000),
    authFailureLimit: readInteger(env, 'AUTH_FAILURE_LIMIT', 50, 0, 1_000_000),
    authFailureWindowMs: readInteger(env, 'AUTH_FAILURE_WINDOW_MS', 300_000, 1000, 86_400_000),
    workers,
    pageMaxBytes: readInteger(env, 'PAGE_MAX_BYTES', 256 * 1024, 16 * 1024, 64 * 1024 * 1024),
    maxConnections,
    unsentMaxBytes: readInteger(
      env,
      'UNSENT_MAX_BYTES',
      16 * 1024 * 1024,
      1024 * 1024,
      4 * 1024 * 1024 * 1024,
    ),
    stallTimeoutMs: readInteger(env, 'STALL_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    console: consoleSetting !== 'off',
    eventsRetentionDays: readInteger(env, 'EVENTS_RETENTION_DAYS', 30, 1, 3650),
    eventsPollIntervalMs: readInteger(env, 'EVENTS_POLL_INTERVAL_MS', 200, 10, 10_000),
    eventsMaxWaiters: readEventsMaxWaiters(env, maxConnections),
    eventsMaxWaitersPerKey: readInteger(env, 'EVENTS_MAX_WAITERS_PER_KEY', 16, 1, 1_000_000),
    secretsKey: readSecretsKey(env),
    webhookAllowHttp: readBoolean(env, 'WEBHOOK_ALLOW_HTTP'),
    webhookAllowPrivateUrls: readBoolean(env, 'WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookTimeoutMs: readInteger(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookMaxResponseBytes: readInteger(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 4096, 0, 1024 * 1024),
    webhookConcurrency: readInteger(env, 'WEBHOOK_CONCURRENCY', 8, 1, 1000),
    webhookMaxEndpoints: readInteger(env, 'WEBHOOK_MAX_ENDPOINTS', 20, 1, 10_000),
    mail: readMailSettings(env),
    oidc: readOidcSettings(env),
    people: {
      publicUrl: readPublicUrl(env),
      sessionIdleMs: readInteger(env, 'SESSION_IDLE_MINUTES', 240, 1, 10_080) * 60_000,
      sessionMaxMs: readInteger(env, 'SESSION_MAX_HOURS', 12, 1, 720) * 3_600_000,
      invitationValidMs: readInteger(env, 'INVITATION_VALID_DAYS', 7, 1, 90) * 86_400_000,
      passwordResetValidMs: readInteger(env, 'PASSWORD_RESET_VALID_MINUTES', 60, 5, 10_080) * 60_000,
      signInFailuresPerAccount: readInteger(env, 'SIGN_IN_FAILURES_PER_ACCOUNT', 10, 1, 1_000_000),
    },
  };
  if (env[PROBLEMS].length > 0) throw new ConfigError(env[PROBLEMS]);
  return config;
}

/** The integer in `name`; when it is invalid, records the problem and gives the fallback. */
function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    invalid(env, `${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return Number(raw);
}

/**
 * Long polls hold a connection each: at most half of MAX_CONNECTIONS may wait,
 * so that the other half is left for every other request (docs/decisions.md,
 * "Long polls and connections").
 */
function readEventsMaxWaiters(env: Env, maxConnections: number): number {
  const half = Math.floor(maxConnections / 2);
  const waiters = readInteger(env, 'EVENTS_MAX_WAITERS', half, 0, 1_000_000);
  if (waiters > half) {
    invalid(
      env,
      `EVENTS_MAX_WAITERS must be at most half of MAX_CONNECTIONS (${half}), so that plain requests always ` +
        `find a connection, got "${env.EVENTS_MAX_WAITERS}"`,
    );
    return half;
  }
  return waiters;
}

function readBoolean(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  invalid(env, `${name} must be "true" or "false", got "${raw}"`);
  return false;
}

/** 32 bytes, written as 64 hex digits or as base64 (44 characters). */
function readSecretsKey(env: Env): Buffer | undefined {
  const raw = env.SECRETS_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(raw) && key.toString('base64') !== raw)) {
    invalid(env, 'SECRETS_KEY must be 32 bytes: 64 hex digits or 44 characters of base64');
    return undefined;
  }
  return key;
}

/** 127.0.0.0/8, ::1 and localhost: addresses that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** "Name <address>" or a bare address, one @ with something on each side. */
const MAIL_ADDRESS = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** SMTP_URL is not echoed in its problem: it may hold the SMTP password. */
function readMailSettings(env: Env): MailSettings | undefined {
  const smtpUrl = env.SMTP_URL;
  if (smtpUrl === undefined || smtpUrl === '') return undefined;
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    invalid(env, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://… (its value is not shown)');
  }
  const from = env.MAIL_FROM?.trim() ?? '';
  if (!MAIL_ADDRESS.test(from)) {
    invalid(
      env,
      from === ''
        ? 'MAIL_FROM must be set when SMTP_URL is: the sender of invitations, e.g. "Gym staff <staff@example.org>"'
        : `MAIL_FROM must be an e-mail address or "Name <address>", got "${from}"`,
    );
  }
  return { smtpUrl, from };
}

const DEFAULT_OIDC_BUTTON_LABEL = "Sign in with your organisation's account";

/** OIDC_CLIENT_SECRET is never echoed in a problem. */
function readOidcSettings(env: Env): OidcSettings | undefined {
  const issuer = env.OIDC_ISSUER ?? '';
  const clientId = env.OIDC_CLIENT_ID ?? '';
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  const buttonLabel = env.OIDC_BUTTON_LABEL?.trim() || DEFAULT_OIDC_BUTTON_LABEL;
  if (issuer === '') {
    if (clientId !== '' || clientSecret !== '') {
      invalid(env, 'OIDC_CLIENT_ID and OIDC_CLIENT_SECRET need OIDC_ISSUER, the identity provider');
    }
    return undefined;
  }
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
    invalid(
      env,
      `OIDC_ISSUER must be an https URL (http only on a loopback address, for tests), got "${issuer}"`,
    );
  }
  if (clientId === '') invalid(env, 'OIDC_CLIENT_ID must be set when OIDC_ISSUER is');
  if (clientSecret === '') invalid(env, 'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is');
  if (buttonLabel.length > 100) invalid(env, 'OIDC_BUTTON_LABEL must be at most 100 characters');
  return { issuer, clientId, clientSecret, buttonLabel };
}

function normalizeBasePath(env: Env, raw: string): string {
  const trimmed = raw.replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    invalid(env, `BASE_PATH must look like "/api/v1", got "${raw}"`);
    return '';
  }
  return trimmed;
}

/** PUBLIC_URL: an absolute http(s) URL without query; its trailing slash dropped. */
function readPublicUrl(env: Env): string | undefined {
  const raw = env.PUBLIC_URL;
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '') {
      return url.href.replace(/\/$/, '');
    }
  } catch {}
  invalid(env, `PUBLIC_URL must be an http or https URL without query, got "${raw}"`);
  return undefined;
}
