/**
 * What differs between the database engines, each a capability that an
 * engine implements (src/db/sqlite/, src/db/postgres/). Shared code asks the
 * engine of its database what it can do, as Kysely asks its adapter, and
 * never which engine it is.
 */
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Db, Executor } from './executor.js';
import type { JournalRows } from './journal-rows.js';
import type { MemberSearch } from './member-search.js';

export interface Engine {
  /**
   * A read can lock the rows it reads until its transaction ends (FOR
   * UPDATE, FOR NO KEY UPDATE). Where it cannot, the engine runs one write
   * transaction at a time, which holds the whole database from its start.
   */
  readonly locksRows: boolean;
  /**
   * Runs a query compiled once (compileOnce) at once, skipping Kysely's
   * executor, which costs more than a point read; `inTransaction` when the
   * caller holds a transaction. Undefined when the query must take its turn
   * through Kysely instead.
   */
  executeNow<R>(query: CompiledQuery<R>, inTransaction: boolean): R[] | Promise<R[]> | undefined;
  /**
   * Reads by key outside a transaction, gathered into one query per batch:
   * where a round trip costs more than gathering. Undefined where a read
   * costs less than gathering it.
   */
  readonly batchedReads: BatchedReads | undefined;
  /** Plans every query of this transaction on every call, where the engine keeps plans. */
  planQueriesPerCall(trx: Executor): Promise<void>;
  /**
   * Appends a write's journal, as its transaction's last statement, so that
   * each facility's feed is in commit order (src/journal/).
   */
  appendJournal(trx: Executor, rows: JournalRows): Promise<void>;
  readonly memberSearch: MemberSearch;
  /**
   * Tells when another connection may have changed a table whose writes
   * notify `channel` (migration 0005), so that a value read from it can be
   * kept in memory until then.
   */
  watchChanges(channel: string): ChangeCounter;
}

export interface BatchedReads {
  /**
   * One read of a row by a unique integer key, joined by the reads of its
   * kind asked for around it. `build` selects the rows whose key is `= anyKey`;
   * `keyOf` reads a row's key. A row of another facility is not found.
   */
  reader<R extends { facility_id: number }>(
    build: (db: Db, anyKey: RawBuilder<number>) => Compilable<R>,
    keyOf: (row: R) => number,
  ): (db: Executor, facilityId: number, key: number) => Promise<R | undefined>;
}

/** A value read at generation g is current while `generation()` still returns g. */
export interface ChangeCounter {
  /** The current generation, or undefined when changes cannot be seen (keep nothing). */
  generation(): number | undefined;
  close(): Promise<void>;
}

/** What both engines' Kysely adapters are: the way from a database to its engine. */
export interface EngineAdapter {
  readonly engine: Engine;
}

/** The engine of a database opened by openDatabase, or of one of its transactions. */
// biome-ignore lint/suspicious/noExplicitAny: works for the typed database, a transaction and migrations alike
export function engineOf(db: Kysely<any>): Engine {
  const { engine } = db.getExecutor().adapter as Partial<EngineAdapter>;
  if (engine === undefined) throw new Error('a database without an engine: open it with openDatabase');
  return engine;
}
