import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: the introspector works on any Kysely instance
type AnyKysely = import('kysely').Kysely<any>;

export type QueryListener = (sql: string, parameters: readonly unknown[]) => void;

/** Write transactions that run in one event-loop turn, committed together. */
interface Batch {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's driver for the one better-sqlite3 connection of a process, with
 * group commit. Each Kysely transaction runs as a savepoint of a shared
 * `BEGIN IMMEDIATE` transaction that is committed once, after every request
 * that arrived in the same event-loop turn has run its transaction
 * (setImmediate). A COMMIT writes every page it changed to the WAL; writes
 * that arrive together share those pages and that one write, which made a
 * create about a quarter cheaper. A transaction that fails rolls back to its
 * savepoint only, so it never touches the others.
 *
 * Nothing is acknowledged early: a transaction's caller resumes only once the
 * shared COMMIT has succeeded (releaseConnection waits for it), and a failed
 * COMMIT fails every transaction of the batch. Transactions that fail on
 * their own also wait, because they may have decided from the batch's data. A
 * query outside a transaction first commits the open batch, so it never reads
 * data that is not yet committed.
 */
export class GroupCommitSqliteDriver implements Driver {
  readonly #sqlite: SQLite.Database;
  readonly #onQuery: QueryListener | undefined;
  readonly #statements = new Map<string, SQLite.Statement>();
  readonly #connection: DatabaseConnection;
  #locked = false;
  readonly #waiting: (() => void)[] = [];
  #batch: Batch | undefined;
  #inTransaction = false;
  /** The batch that the connection's current holder ran a transaction in. */
  #holderBatch: Batch | undefined;

  constructor(sqlite: SQLite.Database, onQuery?: QueryListener) {
    this.#sqlite = sqlite;
    this.#onQuery = onQuery;
    this.#connection = {
      executeQuery: async <R>(query: CompiledQuery) => this.#execute(query as CompiledQuery<R>),
      streamQuery: unsupported,
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#locked = true;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const batch = this.#holderBatch;
    this.#holderBatch = undefined;
    this.#unlock();
    if (batch) await batch.committed;
  }

  async beginTransaction(): Promise<void> {
    if (this.#batch === undefined) {
      this.#run('begin immediate');
      this.#batch = openBatch();
      setImmediate(() => void this.#commitWhenFree());
    }
    this.#run('savepoint request');
    this.#inTransaction = true;
    this.#holderBatch = this.#batch;
  }

  async commitTransaction(): Promise<void> {
    this.#inTransaction = false;
    this.#run('release request');
  }

  async rollbackTransaction(): Promise<void> {
    this.#inTransaction = false;
    // An I/O or disk-full error can make SQLite roll back the whole batch by itself.
    if (!this.#sqlite.inTransaction) return this.#failBatch(new Error('the transaction was rolled back'));
    this.#run('rollback to request');
    this.#run('release request');
  }

  async destroy(): Promise<void> {
    this.#commitBatch();
    this.#sqlite.close();
  }

  /**
   * Runs a query now, skipping Kysely's executor: for statements compiled
   * once (prepareQuery), whose execution costs less than the executor
   * around it. `ownsConnection` says the caller is inside a transaction of
   * this connection. Returns undefined when the connection is busy with
   * another caller; the query must then take its turn through Kysely.
   */
  executeNow<R>(query: CompiledQuery<R>, ownsConnection: boolean): QueryResult<R> | undefined {
    if (!ownsConnection && this.#locked) return undefined;
    return this.#execute(query);
  }

  /** PRAGMA data_version: moves when another connection commits. Reads no table, so it commits nothing. */
  dataVersion(): number {
    return this.#statement('pragma data_version').pluck().get() as number;
  }

  #execute<R>(query: CompiledQuery<R>): QueryResult<R> {
    if (!this.#inTransaction) this.#commitBatch();
    const { sql, parameters } = query;
    this.#onQuery?.(sql, parameters);
    const statement = this.#statement(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Kysely prepares every query anew, and preparing costs more than running
   * a point read. The service issues a small, fixed set of SQL texts, so
   * each prepared statement is kept.
   */
  #statement(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      statement = this.#sqlite.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string): void {
    this.#statement(sql).run();
  }

  #unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }

  /** The end of the turn: commit once no transaction is running. */
  async #commitWhenFree(): Promise<void> {
    if (this.#batch === undefined) return;
    await this.acquireConnection();
    try {
      this.#commitBatch();
    } finally {
      this.#unlock();
    }
  }

  #commitBatch(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    try {
      this.#run('commit');
      batch.resolve();
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#run('rollback');
      batch.reject(error);
    }
  }

  #failBatch(error: Error): void {
    const batch = this.#batch;
    this.#batch = undefined;
    if (this.#sqlite.inTransaction) this.#run('rollback');
    batch?.reject(error);
  }
}

function openBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch whose transactions have all resumed may fail with nobody waiting.
  committed.catch(() => {});
  return { committed, resolve, reject };
}

// biome-ignore lint/correctness/useYield: SQLite streaming is not used by the service
async function* unsupported(): AsyncIterableIterator<never> {
  throw new Error('streaming queries are not supported');
}

/** The adapter of one database: it carries that database's driver, for executeNow. */
export class GroupCommitSqliteAdapter extends SqliteAdapter {
  constructor(readonly driver: GroupCommitSqliteDriver) {
    super();
  }
}

export function groupCommitSqliteDialect(sqlite: SQLite.Database, onQuery?: QueryListener): Dialect {
  const driver = new GroupCommitSqliteDriver(sqlite, onQuery);
  return {
    createDriver: () => driver,
    createAdapter: () => new GroupCommitSqliteAdapter(driver),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db: AnyKysely) => new SqliteIntrospector(db),
  };
}
