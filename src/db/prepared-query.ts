import type { Compilable } from 'kysely';
import { compileOnce, type ParameterFunction } from './engine/compile-once.js';
import { engineOf } from './engine/engine.js';
import type { Db, Executor } from './engine/executor.js';

export type { ParameterFunction } from './engine/compile-once.js';

/**
 * A query built and compiled once (compileOnce), then run with new values:
 * the hot reads (a member, a plan, a policy) skip Kysely's per-call build
 * and compile, which costs more than the read itself. Runs on the database
 * or a transaction like any repository query, with the same connections,
 * prepared statements and query log. Kysely's executor costs more than a
 * point read too, so the engine runs the query at once when it can
 * (Engine.executeNow): SQLite when its connection is free or is this
 * transaction's, PostgreSQL outside a transaction, straight on the pool.
 */
export function prepareQuery<P extends Record<string, unknown>, R>(
  build: (db: Db, param: ParameterFunction<P>) => Compilable<R>,
): (db: Executor, parameters: P) => Promise<R[]> {
  const compiled = compileOnce(build);
  return async (db, parameters) => {
    const query = compiled(db, parameters);
    return engineOf(db).executeNow(query, db.isTransaction) ?? (await db.executeQuery(query)).rows;
  };
}
