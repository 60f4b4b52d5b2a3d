import type { Compilable, CompiledQuery } from 'kysely';
import type { Db, DialectName, Executor } from './database.js';
import { dialectOf } from './dialect.js';
import { PooledPostgresAdapter } from './postgres/dialect.js';
import { GroupCommitSqliteAdapter } from './sqlite/dialect.js';

/** Stands in for a value while a prepared query is compiled; replaced on every run. */
class Parameter {
  constructor(readonly name: string) {}
}

export type ParameterFunction<P> = <K extends keyof P & string>(name: K) => P[K];

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each SQL parameter, the name of the value that fills it, or undefined for a constant. */
  slots: (string | undefined)[];
}

/**
 * A query built with Kysely once and compiled once per dialect, then run with
 * new values: the hot reads (a member, a plan, a policy, an API key) skip
 * Kysely's per-call build and compile, which costs more than the read itself.
 * Runs on the database or a transaction like any repository query, with the
 * same connections, prepared statements and query log.
 * (kysely-params does this too, but pins its own, older Kysely.)
 */
export function prepareQuery<P extends Record<string, unknown>, R>(
  build: (db: Db, param: ParameterFunction<P>) => Compilable<R>,
): (db: Executor, parameters: P) => Promise<R[]> {
  const compiled: Partial<Record<DialectName, Compiled<R>>> = {};
  const param = ((name: string) => new Parameter(name)) as ParameterFunction<P>;
  return async (db, parameters) => {
    const dialect = dialectOf(db);
    let entry = compiled[dialect];
    if (entry === undefined) {
      const query = build(db, param).compile();
      const slots = query.parameters.map((value) => (value instanceof Parameter ? value.name : undefined));
      entry = { query, slots };
      compiled[dialect] = entry;
    }
    const { query, slots } = entry;
    const values = query.parameters.map((value, index) => {
      const name = slots[index];
      return name === undefined ? value : parameters[name];
    });
    const compiledWithValues: CompiledQuery<R> = { ...query, parameters: values };
    // Kysely's executor costs more than a point read. On SQLite the statement
    // runs at once when the connection is free (or is this transaction's);
    // on PostgreSQL a query outside a transaction goes straight to the pool.
    const adapter = db.getExecutor().adapter;
    if (adapter instanceof GroupCommitSqliteAdapter) {
      const result = adapter.driver.executeNow(compiledWithValues, db.isTransaction);
      if (result !== undefined) return result.rows;
    } else if (adapter instanceof PooledPostgresAdapter && !db.isTransaction) {
      return adapter.executeNow(compiledWithValues);
    }
    return (await db.executeQuery<R>(compiledWithValues)).rows;
  };
}
