import type SQLite from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';
import type { QueryListener } from '../engine/query-listener.js';
import { type RowMaker, rowMakerOf } from '../engine/row-maker.js';
import { ConnectionMutex, type Outcome, openOutcome } from './connection-mutex.js';

const STATEMENT_CACHE_SIZE = 500;

/** A prepared statement with, for a reader, the function that makes a row object from its values. */
interface CachedStatement {
  statement: SQLite.Statement;
  toRow: RowMaker | undefined;
}

/** Rows as objects made by a literal (rowMakerOf); better-sqlite3 then reads them as arrays. */
function rowMakerFor(statement: SQLite.Statement): RowMaker | undefined {
  return rowMakerOf(statement.columns().map((column) => column.name));
}

/**
 * Kysely's driver for the one better-sqlite3 connection of a process. Work
 * that arrives in one turn of the event loop shares SQLite transactions,
 * which end when the turn does (setImmediate):
 *
 * - Group commit. Each Kysely transaction runs as a savepoint of one shared
 *   `BEGIN IMMEDIATE` transaction, committed once. A COMMIT writes every page
 *   it changed to the WAL; writes that arrive together share those pages and
 *   that one write. A transaction that fails rolls back to its savepoint
 *   only. Nothing is acknowledged early: a transaction's caller resumes only
 *   once the shared COMMIT has succeeded (releaseConnection waits for it), and
 *   a failed COMMIT fails every transaction of the batch. Transactions that
 *   fail on their own wait too, as they may have decided from the batch's data.
 * - Shared reads. Read-only statements outside a transaction share one read
 *   transaction: SQLite then takes its WAL read lock (file locks and a stat)
 *   once per turn instead of once per statement. They see the database as it
 *   was at the turn's first read, plus nothing uncommitted: a read first
 *   commits an open batch, and a write first ends the shared read.
 */
export class GroupCommitSqliteDriver implements Driver {
  readonly #sqlite: SQLite.Database;
  readonly #onQuery: QueryListener | undefined;
  readonly #statements = new Map<string, CachedStatement>();
  readonly #dataVersionStatement: SQLite.Statement;
  readonly #connection: DatabaseConnection;
  readonly #mutex = new ConnectionMutex();
  /** What SQLite transaction is open: none, the turn's shared read, or a batch of writes. */
  #mode: 'idle' | 'reading' | 'writing' = 'idle';
  #batch: Outcome | undefined;
  #endOfTurnScheduled = false;
  #inTransaction = false;
  /** The batch that the connection's current holder ran a transaction in. */
  #holderBatch: Outcome | undefined;
  /** data_version as the open SQLite transaction sees it: it cannot move until that transaction ends. */
  #transactionDataVersion: number | undefined;

  constructor(sqlite: SQLite.Database, onQuery?: QueryListener) {
    this.#sqlite = sqlite;
    this.#onQuery = onQuery;
    this.#dataVersionStatement = sqlite.prepare('pragma data_version').pluck();
    this.#connection = {
      executeQuery: async <R>(query: CompiledQuery) => this.#execute(query as CompiledQuery<R>),
      streamQuery: unsupported,
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const batch = this.#holderBatch;
    this.#holderBatch = undefined;
    this.#mutex.unlock();
    if (batch) await batch.settled;
  }

  async beginTransaction(): Promise<void> {
    if (this.#mode === 'reading') this.#endRead();
    if (this.#mode === 'idle') {
      this.#run('begin immediate');
      this.#mode = 'writing';
      this.#batch = openOutcome();
      this.#scheduleEndOfTurn();
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
    this.#endTurn();
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
    if (!ownsConnection && this.#mutex.locked) return undefined;
    return this.#execute(query);
  }

  /**
   * PRAGMA data_version: moves when another connection commits. It reads no
   * table, so it runs in whatever transaction is open and commits nothing.
   * Within one SQLite transaction it is fixed (the transaction's snapshot),
   * so it is read once per transaction: once per turn for the shared read.
   */
  dataVersion(): number {
    if (this.#mode === 'idle') this.#enterRead();
    this.#transactionDataVersion ??= this.#dataVersionStatement.get() as number;
    return this.#transactionDataVersion;
  }

  #execute<R>(query: CompiledQuery<R>): QueryResult<R> {
    const { sql, parameters } = query;
    const { statement, toRow } = this.#statement(sql);
    if (!this.#inTransaction) {
      if (statement.readonly) this.#enterRead();
      else this.#endTurn();
    }
    this.#onQuery?.(sql, parameters);
    if (statement.reader) {
      const rows = statement.all(parameters);
      if (toRow) for (let i = 0; i < rows.length; i++) rows[i] = toRow(rows[i] as unknown[]);
      return { rows: rows as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Kysely prepares every query anew, and preparing costs more than running
   * a point read. The service issues a small, fixed set of SQL texts, so
   * each prepared statement is kept.
   */
  #statement(sql: string): CachedStatement {
    let cached = this.#statements.get(sql);
    if (cached === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      const statement = this.#sqlite.prepare(sql);
      const toRow = statement.reader ? rowMakerFor(statement) : undefined;
      if (toRow) statement.raw(true);
      cached = { statement, toRow };
      this.#statements.set(sql, cached);
    }
    return cached;
  }

  #run(sql: string): void {
    this.#statement(sql).statement.run();
  }

  /** A read outside a transaction: it joins the turn's read transaction, after the batch is committed. */
  #enterRead(): void {
    if (this.#mode === 'writing') this.#commitBatch();
    if (this.#mode === 'idle') {
      this.#run('begin');
      this.#mode = 'reading';
      this.#scheduleEndOfTurn();
    }
  }

  #scheduleEndOfTurn(): void {
    if (this.#endOfTurnScheduled) return;
    this.#endOfTurnScheduled = true;
    setImmediate(() => {
      this.#endOfTurnScheduled = false;
      if (this.#mode === 'reading') this.#endRead();
      else if (this.#mode === 'writing') void this.#commitWhenFree();
    });
  }

  /** Leaves the connection with no transaction open: before a write outside a transaction, or on close. */
  #endTurn(): void {
    if (this.#mode === 'reading') this.#endRead();
    else if (this.#mode === 'writing') this.#commitBatch();
  }

  #endRead(): void {
    this.#mode = 'idle';
    this.#transactionDataVersion = undefined;
    if (this.#sqlite.inTransaction) this.#run('commit');
  }

  /** Commits the batch once no transaction is running. */
  async #commitWhenFree(): Promise<void> {
    await this.#mutex.lock();
    try {
      if (this.#mode === 'writing') this.#commitBatch();
    } finally {
      this.#mutex.unlock();
    }
  }

  #commitBatch(): void {
    const batch = this.#batch;
    this.#batch = undefined;
    this.#mode = 'idle';
    this.#transactionDataVersion = undefined;
    try {
      this.#run('commit');
      batch?.resolve();
    } catch (error) {
      if (this.#sqlite.inTransaction) this.#run('rollback');
      batch?.reject(error);
    }
  }

  #failBatch(error: Error): void {
    const batch = this.#batch;
    this.#batch = undefined;
    this.#mode = 'idle';
    this.#transactionDataVersion = undefined;
    if (this.#sqlite.inTransaction) this.#run('rollback');
    batch?.reject(error);
  }
}

// biome-ignore lint/correctness/useYield: SQLite streaming is not used by the service
async function* unsupported(): AsyncIterableIterator<never> {
  throw new Error('streaming queries are not supported');
}
