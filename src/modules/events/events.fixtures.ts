import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';

/**
 * Waits until the feed shows every transaction committed so far. On
 * PostgreSQL the feed holds events back while any older transaction of the
 * cluster runs, other test files' included: this takes a new transaction id
 * and waits until the horizon passes it. On SQLite the feed is never behind.
 */
export async function feedSettled(db: Db, timeoutMs = 10_000): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const { rows } = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(db);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = await sql<{ passed: boolean }>`
      select pg_snapshot_xmin(pg_current_snapshot()) > ${rows[0].xid}::xid8 as passed`.execute(db);
    if (check.rows[0].passed) return;
    if (Date.now() > deadline) throw new Error('the feed horizon did not pass in time');
    await sleep(10);
  }
}
