import { sql } from 'kysely';
import type { Executor } from './database.js';
import { dialectOf } from './dialect.js';

/**
 * Plans every query of this transaction on every call, on PostgreSQL: for a
 * transaction that grows a table under its own queries (an import), whose
 * prepared statements would otherwise keep the generic plan chosen while the
 * table was small (a sequential scan), making each row cost more than the
 * last. It ends with the transaction; SQLite has no plan cache to steer.
 */
export async function planQueriesPerCall(trx: Executor): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
}
