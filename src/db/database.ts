import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogConfig, PostgresDialect, type PostgresPoolClient, type Transaction } from 'kysely';
import type pg from 'pg';
import type { DatabaseSchema } from './schema.js';
import { groupCommitSqliteDialect } from './sqlite-dialect.js';

export type Db = Kysely<DatabaseSchema>;
export type Trx = Transaction<DatabaseSchema>;
/** What repositories take as their first argument: the database or a transaction. */
export type Executor = Db | Trx;
export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Connection pool usage (PostgreSQL only), for metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** A connection outside the pool (PostgreSQL only), for LISTEN. */
  newClient?: () => pg.Client;
  close(): Promise<void>;
}

export function parseDatabaseUrl(url: string): { dialect: DialectName; target: string } {
  if (url.startsWith('sqlite:')) return { dialect: 'sqlite', target: url.slice('sqlite:'.length) };
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { dialect: 'postgres', target: url };
  }
  throw new Error('DATABASE_URL must start with "sqlite:" or "postgres://"');
}

export interface OpenOptions {
  /** Called with every query the data layer runs (tests count them). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === 'sqlite') {
    // The SQLite driver reports every query itself, whichever way it runs.
    const db = openSqlite(target, options.onQuery);
    return { db, dialect, close: () => db.destroy() };
  }
  const { db, pool } = openPostgres(target, options.onQuery && toKyselyLog(options.onQuery));
  return {
    db,
    dialect,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    newClient: () =>
      new (loadPg().Client)({
        connectionString: target,
        // A listening connection is idle: keepalives notice when it is gone.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        types: pgTypes,
        options: UTC_SESSION,
      }),
    close: () => db.destroy(),
  };
}

function toKyselyLog(onQuery: NonNullable<OpenOptions['onQuery']>): LogConfig {
  return (event) => {
    if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
  };
}

function openSqlite(path: string, onQuery?: OpenOptions['onQuery']): Db {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(inMemory ? ':memory:' : path);
  if (!inMemory) sqlite.pragma('journal_mode = WAL');
  // NORMAL with WAL loses nothing on a process crash; only an OS crash can
  // roll back the last transactions.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<DatabaseSchema>({ dialect: groupCommitSqliteDialect(sqlite, onQuery) });
}

/** Sessions run in UTC, so timestamps arrive in the one form toIsoTimestamp reads fast. */
const UTC_SESSION = '-c TimeZone=UTC';
const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const DATE_OID = 1082;
const INT8_OID = 20;

/** How PostgreSQL writes a timestamptz in a UTC session: `2026-11-22 04:00:55.158+00`. */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** The same text as `new Date(value).toISOString()`, without parsing a date (3 per member row). */
function toIsoTimestamp(value: string): string {
  const match = UTC_TIMESTAMP.exec(value);
  if (match === null) return new Date(value).toISOString();
  return `${match[1]}T${match[2]}.${`${match[3] ?? ''}000`.slice(0, 3)}Z`;
}
const asText = (value: string) => value;
const toNumber = (value: string) => Number(value);

/** Make PostgreSQL rows look like SQLite rows: ISO timestamps, date strings, numbers. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TIMESTAMPTZ_OID:
      case TIMESTAMP_OID:
        return toIsoTimestamp;
      case DATE_OID:
        return asText;
      case INT8_OID:
        return toNumber;
      default:
        // biome-ignore lint/suspicious/noExplicitAny: pg's overloads do not accept a union format
        return loadPg().types.getTypeParser(oid, format as any);
    }
  },
};

let pgModule: typeof pg | undefined;

/**
 * pg is loaded only when PostgreSQL is used: an SQLite process saves its
 * memory. Loaded once: pg asks for a type parser for every column of every
 * result.
 */
function loadPg(): typeof pg {
  pgModule ??= createRequire(import.meta.url)('pg') as typeof pg;
  return pgModule;
}

function openPostgres(url: string, log?: LogConfig): { db: Db; pool: pg.Pool } {
  const pool = new (loadPg().Pool)({ connectionString: url, max: 10, types: pgTypes, options: UTC_SESSION });
  // An idle client whose server went away emits 'error'; without a listener
  // that would crash the process. The next query fails and is answered 503.
  pool.on('error', () => {});
  // The pool listens only while a client is idle. A checked-out client (a
  // transaction between two queries) that loses its server, as when
  // PostgreSQL shuts down, would emit an unhandled 'error' and crash the
  // process. Its next query fails instead (503), and the pool discards it on
  // release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const preparingPool = {
    connect: async () => withNamedStatements(await pool.connect()),
    end: () => pool.end(),
  };
  return {
    db: new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: preparingPool }), log }),
    pool,
  };
}

/** A small, fixed set of SQL texts in practice; past this the names start over. */
const MAX_STATEMENT_NAMES = 5000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();

/**
 * Runs data queries as named prepared statements, so PostgreSQL parses and
 * plans each SQL text once per connection instead of on every request.
 */
function withNamedStatements(client: pg.PoolClient): PostgresPoolClient {
  return {
    release: (error?: Error | boolean) => client.release(error),
    query: ((text: string, values: unknown[]) => {
      if (!PREPARABLE.test(text)) return client.query(text, values);
      let name = statementNames.get(text);
      if (!name) {
        if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
        name = `fa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
        statementNames.set(text, name);
      }
      return client.query({ name, text, values });
      // Kysely types the client's query as a set of overloads; this covers the one it calls.
    }) as unknown as PostgresPoolClient['query'],
  };
}
