import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogConfig } from 'kysely';
import type pg from 'pg';
import type { Db } from './engine/executor.js';
import type { QueryListener } from './engine/query-listener.js';
import { openPostgres } from './postgres/dialect.js';
import type { DatabaseSchema } from './schema.js';
import { SERVING_CONNECTION_AUTOCHECKPOINT_PAGES, startCheckpointer } from './sqlite/checkpointer.js';
import { groupCommitSqliteDialect } from './sqlite/dialect.js';

export type { Db, Executor, Trx } from './engine/executor.js';
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
  onQuery?: QueryListener;
  /** SQLite file: checkpoint the WAL from a background thread (the serving process). */
  checkpointInBackground?: boolean;
  /** SQLite file: fail rather than create the file (and its directory) when it is missing. */
  fileMustExist?: boolean;
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === 'sqlite') {
    // Each dialect reports every query itself, whichever way it runs.
    return openSqlite(target, options);
  }
  const { dialect: postgres, pool, newClient } = openPostgres(target, options.onQuery);
  const db = new Kysely<DatabaseSchema>({
    dialect: postgres,
    log: options.onQuery && toKyselyLog(options.onQuery),
  });
  return {
    db,
    dialect,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    newClient,
    close: () => db.destroy(),
  };
}

function toKyselyLog(onQuery: NonNullable<OpenOptions['onQuery']>): LogConfig {
  return (event) => {
    if (event.level === 'query') onQuery(event.query.sql, event.query.parameters);
  };
}

function openSqlite(path: string, options: OpenOptions): Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory && !options.fileMustExist) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(inMemory ? ':memory:' : path, { fileMustExist: options.fileMustExist === true });
  if (!inMemory) sqlite.pragma('journal_mode = WAL');
  // NORMAL with WAL loses nothing on a process crash; only an OS crash can
  // roll back the last transactions.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's own default, 2 MB: better-sqlite3 raises it to 16 MB, which a
  // large database fills and which stays in the process's memory; the
  // operating system's file cache serves the pages read again (docs/operations.md, "Memory").
  sqlite.pragma('cache_size = -2000');
  const checkpointer =
    !inMemory && options.checkpointInBackground
      ? // Without the thread, the serving connection checkpoints by itself again.
        startCheckpointer(path, () => sqlite.open && sqlite.pragma('wal_autocheckpoint = 1000'))
      : undefined;
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${SERVING_CONNECTION_AUTOCHECKPOINT_PAGES}`);
  const db = new Kysely<DatabaseSchema>({ dialect: groupCommitSqliteDialect(sqlite, options.onQuery) });
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
