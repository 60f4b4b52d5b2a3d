import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The feed is ordered by id alone on PostgreSQL too: a facility's events now
 * take their ids in commit order (src/journal/journal.repository.ts), so the
 * writing transaction's id (`xid`, migration 0020) and the horizon read
 * under it are no longer needed. SQLite already ordered by id.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.createIndex('events_facility_id').on('events').columns(['facility_id', 'id']).execute();
  await db.schema.dropIndex('events_facility_position').execute();
  await db.schema.alterTable('events').dropColumn('xid').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema
    .alterTable('events')
    .addColumn('xid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    .execute();
  await db.schema
    .createIndex('events_facility_position')
    .on('events')
    .columns(['facility_id', 'xid', 'id'])
    .execute();
  await db.schema.dropIndex('events_facility_id').execute();
}
