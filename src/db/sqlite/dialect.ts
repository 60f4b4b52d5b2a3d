import type SQLite from 'better-sqlite3';
import { type Dialect, type Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { QueryListener } from '../query-listener.js';
import { GroupCommitSqliteDriver } from './driver.js';

/** The adapter of one database: it carries that database's driver, for its direct paths. */
export class GroupCommitSqliteAdapter extends SqliteAdapter {
  constructor(readonly driver: GroupCommitSqliteDriver) {
    super();
  }
}

/** Kysely's SQLite dialect with the group-commit driver (sqlite-driver.ts). */
export function groupCommitSqliteDialect(sqlite: SQLite.Database, onQuery?: QueryListener): Dialect {
  const driver = new GroupCommitSqliteDriver(sqlite, onQuery);
  return {
    createDriver: () => driver,
    createAdapter: () => new GroupCommitSqliteAdapter(driver),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    // biome-ignore lint/suspicious/noExplicitAny: the introspector works on any Kysely instance
    createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db),
  };
}
