import { type CompiledQuery, sql } from 'kysely';
import type pg from 'pg';
import type { Engine } from '../engine/engine.js';
import type { QueryListener } from '../engine/query-listener.js';
import { batchReads } from './batched-read.js';
import { listenForChanges } from './change-listener.js';
import { appendJournalInOneStatement } from './journal-append.js';
import { postgresMemberSearch } from './member-search.js';
import { queryObjects } from './object-rows.js';

interface PostgresConnections {
  pool: pg.Pool;
  onQuery: QueryListener | undefined;
  /** A connection outside the pool, for LISTEN. */
  newClient: () => pg.Client;
}

/** PostgreSQL, over a pool of connections, each transaction on one of them. */
export function postgresEngine({ pool, onQuery, newClient }: PostgresConnections): Engine {
  /** Straight on the pool, as a bare pg client would: a named prepared statement, without Kysely's executor, rows made by a literal. */
  const onPool = async <R>(query: CompiledQuery<R>): Promise<R[]> => {
    onQuery?.(query.sql, query.parameters);
    return (await queryObjects(pool, query.sql, query.parameters)).rows as R[];
  };
  return {
    // Plans and policies FOR UPDATE, members FOR NO KEY UPDATE (src/db/point-read.ts).
    locksRows: true,
    // A transaction's queries run on its own connection, through Kysely.
    executeNow: (query, inTransaction) => (inTransaction ? undefined : onPool(query)),
    batchedReads: { reader: (build, keyOf) => batchReads(build, keyOf, onPool) },
    /**
     * Prepared statements would otherwise keep, after five calls, the
     * generic plan chosen while the table was small (a sequential scan) in a
     * transaction that grows it under its own queries (an import). The
     * setting ends with the transaction.
     */
    planQueriesPerCall: async (trx) => {
      await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    },
    appendJournal: appendJournalInOneStatement,
    memberSearch: postgresMemberSearch,
    /**
     * A trigger on the table sends NOTIFY (migration 0005); one listening
     * connection per process counts the notifications.
     */
    watchChanges: (channel) => listenForChanges(newClient, channel),
  };
}
