import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL: the trigram index's pending list (GIN's fast update) holds at
 * most 256 kB instead of the server's default of 4 MB. New and changed
 * members wait in that list, unsorted, until it is full, and every search
 * through the index reads all of it: a few thousand creates since the last
 * vacuum made a member's email cost the server several times as much. At
 * 256 kB a search reads at most 32 pages of it and a create costs the
 * server a little more; without fast update a create cost far more
 * (measured by hand: docs/performance-log.md).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter index members_search set (gin_pending_list_limit = 256)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter index members_search reset (gin_pending_list_limit)`.execute(db);
}
