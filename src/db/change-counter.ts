import type pg from 'pg';
import type { Database } from './database.js';
import { GroupCommitSqliteAdapter } from './sqlite/dialect.js';

/**
 * Tells whether another connection may have changed a table since a value
 * was read from it, so that the value can be kept in memory until then
 * (verified API keys). A value read at generation g is current while
 * `generation()` still returns g.
 */
export interface ChangeCounter {
  /** The current generation, or undefined when changes cannot be seen (keep nothing). */
  generation(): number | undefined;
  close(): Promise<void>;
}

const RECONNECT_AFTER_MS = 1000;

/**
 * SQLite: `PRAGMA data_version` moves whenever another connection (another
 * worker, the `keys` CLI) commits, and costs no table read. A change to any
 * table counts, which errs on the safe side.
 *
 * PostgreSQL: a trigger on the table sends NOTIFY (migration 0005); one
 * listening connection per process bumps the generation on every
 * notification and on every reconnect. While it is not listening, nothing is
 * kept.
 */
export function openChangeCounter(database: Database, channel: string): ChangeCounter {
  const adapter = database.db.getExecutor().adapter;
  if (adapter instanceof GroupCommitSqliteAdapter) {
    return { generation: () => adapter.driver.dataVersion(), close: async () => {} };
  }
  if (!database.newClient) throw new Error('PostgreSQL database without a client factory');
  return listenForChanges(database.newClient, channel);
}

function listenForChanges(connect: () => pg.Client, channel: string): ChangeCounter {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const drop = (stale: pg.Client): Promise<void> => {
    stale.removeAllListeners();
    stale.on('error', () => {});
    return stale.end().catch(() => {});
  };

  const lost = () => {
    listening = false;
    generation++;
    if (client) void drop(client);
    client = undefined;
    if (!closed) retry = setTimeout(start, RECONNECT_AFTER_MS).unref();
  };

  async function start() {
    const candidate = connect();
    client = candidate;
    candidate.on('error', lost);
    candidate.on('end', () => candidate === client && lost());
    candidate.on('notification', () => generation++);
    try {
      await candidate.connect();
      await candidate.query(`listen ${channel}`);
    } catch {
      if (candidate === client) lost();
      return;
    }
    // Closed (or replaced) while connecting: this connection is not wanted.
    if (candidate !== client) return void drop(candidate);
    generation++;
    listening = true;
  }
  void start();

  return {
    generation: () => (listening ? generation : undefined),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listening = false;
      const current = client;
      client = undefined;
      if (current) await drop(current);
    },
  };
}
