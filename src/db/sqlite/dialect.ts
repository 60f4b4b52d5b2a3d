import type SQLite from 'better-sqlite3';
import { type Dialect, type Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { Engine, EngineAdapter } from '../engine/engine.js';
import type { QueryListener } from '../engine/query-listener.js';
import { GroupCommitSqliteDriver } from './driver.js';
import { sqliteEngine } from './engine.js';

/** The adapter of one database: it carries that database's engine (engineOf). */
export class GroupCommitSqliteAdapter extends SqliteAdapter implements EngineAdapter {
  constructor(readonly engine: Engine) {
    super();
  }
}

/** Kysely's SQLite dialect with the group-commit driver (driver.ts). */
export function groupCommitSqliteDialect(sqlite: SQLite.Database, onQuery?: QueryListener): Dialect {
  const driver = new GroupCommitSqliteDriver(sqlite, onQuery);
  const engine = sqliteEngine(driver);
  return {
    createDriver: () => driver,
    createAdapter: () => new GroupCommitSqliteAdapter(engine),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    // biome-ignore lint/suspicious/noExplicitAny: the introspector works on any Kysely instance
    createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db),
  };
}
