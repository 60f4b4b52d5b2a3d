import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { type Config, ConfigError } from './config.js';
import { parseDatabaseUrl } from './db/database.js';

/** A refusal the CLI words itself (a missing database, a bad combination of options). */
export class UsageError extends Error {}

type SystemError = Error & {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
  path?: string;
  severity?: string;
  errors?: unknown[];
};

/**
 * The database a command works on, as an operator would look for it: a
 * SQLite file by its absolute path (a relative path is relative to the
 * directory the command runs in), a PostgreSQL URL without its password.
 */
export function describeDatabase(databaseUrl: string): string {
  const { dialect, target } = parseDatabaseUrl(databaseUrl);
  if (dialect === 'sqlite')
    return target === ':memory:' || target === '' ? 'sqlite::memory:' : `sqlite:${resolve(target)}`;
  try {
    const url = new URL(target);
    url.password = '';
    return url.toString();
  } catch {
    return 'the PostgreSQL database in DATABASE_URL';
  }
}

/**
 * One line that says why the service or a command could not start and which
 * setting to change, or undefined for a failure nobody foresaw (whose stack
 * is then worth printing). Recognised by the error's shape: the start-up
 * steps run in libraries (pg, better-sqlite3, net) that do not say which
 * step they were in.
 */
export function explainFailure(error: unknown, config: Config | undefined): string | undefined {
  if (error instanceof ConfigError) return `invalid configuration: ${error.problems.join('; ')}`;
  // By name: the catalog's module loads its JSON Schema compiler, which most commands never need.
  if (error instanceof Error && error.name === 'TemplateCatalogError') {
    return `TEMPLATES_FILE: ${error.message}`;
  }
  if (error instanceof UsageError || error instanceof InvalidArgumentError) return error.message;
  if (!(error instanceof Error)) return undefined;
  const failure = error as SystemError;
  if (/^corrupted migrations/.test(failure.message)) {
    return `the database was migrated by a newer release of facility-admin (${failure.message}); run that release, or restore the backup taken before the upgrade`;
  }
  if (config === undefined) return undefined;
  // In a cluster worker the primary binds the port, and the worker hears "bind".
  if (failure.syscall === 'listen' || failure.syscall === 'bind') return explainListen(failure, config);
  const { dialect, target } = parseDatabaseUrl(config.databaseUrl);
  if (
    failure.syscall === 'getaddrinfo' &&
    failure.hostname === config.host &&
    !target.includes(config.host)
  ) {
    return `cannot listen on ${config.host}:${config.port}: cannot resolve the name (${failure.code}); set HOST to an address or name of this machine`;
  }
  return dialect === 'postgres' ? explainPostgres(failure, target) : explainSqlite(failure, target);
}

function explainListen(failure: SystemError, config: Config): string | undefined {
  const where = `${config.host}:${config.port}`;
  switch (failure.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use by another process; set PORT to a free port or stop the other process`;
    case 'EACCES':
      return `cannot listen on ${where}: not permitted (ports below 1024 need privileges); set PORT to 1024 or above`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${config.host} is not an address of this machine; set HOST (0.0.0.0 for every interface)`;
    default:
      return `cannot listen on ${where} (${failure.code}); check HOST and PORT`;
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** PostgreSQL's SQLSTATE classes and codes that a start-up can meet, and what to do about each. */
const REFUSALS: Record<string, string> = {
  '28000': 'check the user in DATABASE_URL',
  '28P01': 'check the user and password in DATABASE_URL',
  '3D000': 'create the database (createdb) or fix its name in DATABASE_URL',
  '42501':
    "give DATABASE_URL's user the right to create tables and extensions (README, Running on PostgreSQL)",
  '53300': 'the server has no connection left: raise its max_connections or run fewer instances',
  '57P03': 'the server is starting or stopping: start again in a moment',
};

function explainPostgres(failure: SystemError, target: string): string | undefined {
  const server = postgresServer(target);
  const code = failure.code ?? codeOfFirst(failure.errors);
  if (code !== undefined && UNREACHABLE.has(code)) {
    return `cannot reach the PostgreSQL server at ${server} (${code}); check the host and port in DATABASE_URL and that the server is running`;
  }
  if (typeof failure.severity === 'string' && code !== undefined) {
    const remedy = REFUSALS[code] ?? 'check DATABASE_URL';
    return `PostgreSQL at ${server} refused: ${failure.message} (SQLSTATE ${code}); ${remedy}`;
  }
  if (/SSL|Connection terminated|timeout/i.test(failure.message)) {
    return `PostgreSQL at ${server}: ${failure.message}; check DATABASE_URL (host, port, sslmode)`;
  }
  return undefined;
}

function explainSqlite(failure: SystemError, target: string): string | undefined {
  const file = resolve(target);
  if (failure.syscall === 'mkdir') {
    return `cannot create the directory ${failure.path ?? dirname(file)} for the SQLite database ${file} (${failure.code}); set DATABASE_URL to a path in a writable directory`;
  }
  if (/directory does not exist/.test(failure.message)) {
    return `the directory ${dirname(file)} of the SQLite database ${file} does not exist; set DATABASE_URL to an existing path`;
  }
  const code = failure.code ?? '';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return `${file} is not a usable SQLite database (${failure.message}); set DATABASE_URL to the service's database file`;
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM') {
    return `cannot write the SQLite database ${file} (${failure.message}); make the file and its directory writable, or set DATABASE_URL`;
  }
  if (code.startsWith('SQLITE_')) {
    return `the SQLite database ${file} failed: ${failure.message} (${code}); check DATABASE_URL and the disk`;
  }
  return undefined;
}

function postgresServer(target: string): string {
  try {
    const url = new URL(target);
    return `${url.hostname || 'localhost'}:${url.port || 5432}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Connecting to "localhost" tries every address it resolves to and fails with all of their errors. */
function codeOfFirst(errors: unknown[] | undefined): string | undefined {
  const first = errors?.[0] as SystemError | undefined;
  return first?.code;
}
