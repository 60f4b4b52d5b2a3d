import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL: a trigram index over the text that `q` searches (first name,
 * last name, email, a line each), so that a search in a facility of a million
 * members reads the members that may contain the term instead of all of them
 * (src/modules/members/member-list.repository.ts). One index on the three
 * fields is cheaper to write than three.
 *
 * pg_trgm ships with PostgreSQL and, from PostgreSQL 13 on, is a trusted
 * extension, which the database's owner may create (README).
 *
 * SQLite gets none here: FTS5's trigram index, as first measured at a
 * million members, made each create cost several times more
 * (docs/performance.md); migration 0030 adds one since.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`
    create index members_search on members using gin (
      (lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))
      gin_trgm_ops
    )`.execute(db);
  // The planner weighs the index by the expression's statistics, which only ANALYZE gathers.
  await sql`analyze members`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop index members_search`.execute(db);
}
