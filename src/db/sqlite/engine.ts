import type { CompiledQuery } from 'kysely';
import type { Engine } from '../engine/engine.js';
import type { Executor } from '../engine/executor.js';
import type { GroupCommitSqliteDriver } from './driver.js';
import { appendJournalRowByRow } from './journal-append.js';
import { sqliteMemberSearch } from './member-search.js';

/**
 * SQLite, in the process: one connection shared by every request, whose
 * write transactions run one batch at a time (driver.ts).
 */
export function sqliteEngine(driver: GroupCommitSqliteDriver): Engine {
  const executeNow = <R>(query: CompiledQuery<R>, inTransaction: boolean) =>
    driver.executeNow(query, inTransaction)?.rows;
  const runNow = async <R>(db: Executor, query: CompiledQuery<R>) =>
    executeNow(query, db.isTransaction) ?? (await db.executeQuery(query)).rows;
  return {
    // Every write transaction starts with BEGIN IMMEDIATE, which takes the write lock up front.
    locksRows: false,
    executeNow,
    // A read in the process costs less than gathering it.
    batchedReads: undefined,
    // SQLite has no plan cache to steer.
    planQueriesPerCall: async () => {},
    appendJournal: (trx, rows) => appendJournalRowByRow(trx, rows, runNow),
    memberSearch: sqliteMemberSearch,
    /**
     * `PRAGMA data_version` moves whenever another connection (another
     * worker, the `keys` CLI) commits, and costs no table read. A change to
     * any table counts, which errs on the safe side.
     */
    watchChanges: () => ({ generation: () => driver.dataVersion(), close: async () => {} }),
  };
}
