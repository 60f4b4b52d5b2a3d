import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  type CompiledQuery,
  type Dialect,
  type Kysely,
  PostgresAdapter,
  PostgresDialect,
  type PostgresPoolClient,
} from 'kysely';
import type pg from 'pg';
import { PLANNED_PER_CALL_TEXT } from '../planned-per-call.js';
import type { QueryListener } from '../query-listener.js';

/**
 * Sessions run in UTC with ISO dates, whatever the server or database sets,
 * so timestamps and dates arrive in the one form toIsoTimestamp reads fast
 * (DateStyle 'SQL, DMY' would send `03/02/2000`).
 */
const UTC_SESSION = '-c TimeZone=UTC -c DateStyle=ISO,YMD';
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

type TypeParser = (value: string) => unknown;
const typeParsers = new Map<number, TypeParser>();

/**
 * Make PostgreSQL rows look like SQLite rows: ISO timestamps, date strings,
 * numbers. pg asks for a parser for every column of every result, so each
 * is looked up once.
 */
const pgTypes = {
  getTypeParser(oid: number): TypeParser {
    let parser = typeParsers.get(oid);
    if (parser === undefined) {
      parser = parserFor(oid);
      typeParsers.set(oid, parser);
    }
    return parser;
  },
};

function parserFor(oid: number): TypeParser {
  switch (oid) {
    case TIMESTAMPTZ_OID:
    case TIMESTAMP_OID:
      return toIsoTimestamp;
    case DATE_OID:
      return asText;
    case INT8_OID:
      return toNumber;
    default:
      return loadPg().types.getTypeParser(oid, 'text');
  }
}

let pgModule: typeof pg | undefined;

/** pg is loaded only when PostgreSQL is used: an SQLite process saves its memory. */
function loadPg(): typeof pg {
  pgModule ??= createRequire(import.meta.url)('pg') as typeof pg;
  return pgModule;
}

/** A small, fixed set of SQL texts in practice; past this the names start over. */
const MAX_STATEMENT_NAMES = 5000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();

/**
 * Data queries run as named prepared statements, so PostgreSQL parses and
 * plans each SQL text once per connection instead of on every request.
 */
export function asNamedStatement(text: string, values: readonly unknown[]): pg.QueryConfig | undefined {
  if (!PREPARABLE.test(text) || text.endsWith(PLANNED_PER_CALL_TEXT)) return undefined;
  let name = statementNames.get(text);
  if (!name) {
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
    name = `fa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}

function withNamedStatements(client: pg.PoolClient): PostgresPoolClient {
  return {
    release: (error?: Error | boolean) => client.release(error),
    query: ((text: string, values: unknown[]) =>
      client.query(asNamedStatement(text, values) ?? text, values)) as unknown as PostgresPoolClient['query'],
    // Kysely types the client's query as a set of overloads; this covers the one it calls.
  };
}

/** The adapter of one database: it carries that database's pool, for executeNow. */
export class PooledPostgresAdapter extends PostgresAdapter {
  constructor(
    readonly pool: pg.Pool,
    readonly onQuery: QueryListener | undefined,
  ) {
    super();
  }

  /**
   * Runs a statement compiled once (prepareQuery) outside any transaction,
   * straight on the pool, skipping Kysely's executor, as a bare pg client
   * would.
   */
  async executeNow<R>(query: CompiledQuery<R>): Promise<R[]> {
    this.onQuery?.(query.sql, query.parameters);
    const config = asNamedStatement(query.sql, query.parameters) ?? { text: query.sql };
    return (await this.pool.query(config)).rows as R[];
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
  const kyselyDialect = new PostgresDialect({ pool: preparingPool });
  const dialect: Dialect = {
    createDriver: () => kyselyDialect.createDriver(),
    createAdapter: () => new PooledPostgresAdapter(pool, onQuery),
    createQueryCompiler: () => kyselyDialect.createQueryCompiler(),
    // biome-ignore lint/suspicious/noExplicitAny: the introspector works on any Kysely instance
    createIntrospector: (db: Kysely<any>) => kyselyDialect.createIntrospector(db),
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
  return { dialect, pool, newClient };
}
