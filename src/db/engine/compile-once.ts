import type { Compilable, CompiledQuery, DialectAdapter } from 'kysely';
import type { Db, Executor } from './executor.js';

/** Stands in for a value while a query is compiled; replaced on every run. */
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
 * A query built with Kysely once and compiled once per database, then given
 * new values on every call: Kysely's per-call build and compile cost more
 * than a point read. `param(name)` stands for a value in the build.
 * (kysely-params does this too, but pins its own, older Kysely.)
 */
export function compileOnce<P extends Record<string, unknown>, R>(
  build: (db: Db, param: ParameterFunction<P>) => Compilable<R>,
): (db: Executor, parameters: P) => CompiledQuery<R> {
  // By adapter: one per database, shared by its transactions, and what the SQL depends on.
  const compiled = new WeakMap<DialectAdapter, Compiled<R>>();
  const param = ((name: string) => new Parameter(name)) as ParameterFunction<P>;
  return (db, parameters) => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (entry === undefined) {
      const query = build(db, param).compile();
      const slots = query.parameters.map((value) => (value instanceof Parameter ? value.name : undefined));
      entry = { query, slots };
      compiled.set(adapter, entry);
    }
    const { query, slots } = entry;
    const values = query.parameters.map((value, index) => {
      const name = slots[index];
      return name === undefined ? value : parameters[name];
    });
    return { ...query, parameters: values };
  };
}
