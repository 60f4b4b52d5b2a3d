import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL: the trigram index's pending list (GIN's fast update) holds at
 * most 256 kB instead of the server's default of 4 MB. New and changed
 * members wait in that list, unsorted, until it is full, and every search
 * through the index reads all of it: after 2,000 creates (167 pages) a
 * member's email at a million members cost the server 3.6 ms instead of
 * 1.4. At 256 kB a search reads at most 32 pages of it (0.4 ms) and a
 * create costs the server about 30 µs more, measured by hand
 * (docs/performance-log.md); without fast update a create cost 270 µs more.
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
