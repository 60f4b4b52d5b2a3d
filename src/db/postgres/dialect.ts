/**
 * The PostgreSQL side of openDatabase: Kysely's dialect over one pg pool
 * whose queries run as named prepared statements, and the adapter that
 * carries the database's engine.
 */
import { type Dialect, type Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import type { Engine, EngineAdapter } from '../engine/engine.js';
import type { QueryListener } from '../engine/query-listener.js';
import { postgresEngine } from './engine.js';
import { loadPg } from './load-pg.js';
import { withNamedStatements } from './object-rows.js';
import { pgTypes, UTC_SESSION } from './type-parsers.js';

/** The adapter of one database: it carries that database's engine (engineOf). */
export class PooledPostgresAdapter extends PostgresAdapter implements EngineAdapter {
  constructor(readonly engine: Engine) {
    super();
  }
}

export function openPostgres(url: string, onQuery?: QueryListener) {
  const Pg = loadPg();
  const pool = new Pg.Pool({ connectionString: url, max: 10, types: pgTypes, options: UTC_SESSION });
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
  /** A connection outside the pool, for LISTEN. */
  const newClient = () =>
    new Pg.Client({
      connectionString: url,
      // A listening connection is idle: keepalives notice when it is gone.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      types: pgTypes,
      options: UTC_SESSION,
    });
  const engine = postgresEngine({ pool, onQuery, newClient });
  const kyselyDialect = new PostgresDialect({ pool: preparingPool });
  const dialect: Dialect = {
    createDriver: () => kyselyDialect.createDriver(),
    createAdapter: () => new PooledPostgresAdapter(engine),
    createQueryCompiler: () => kyselyDialect.createQueryCompiler(),
    // biome-ignore lint/suspicious/noExplicitAny: the introspector works on any Kysely instance
    createIntrospector: (db: Kysely<any>) => kyselyDialect.createIntrospector(db),
  };
  return { dialect, pool, newClient };
}
