import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * The change feed: one row per committed change, written by the write's own
 * transaction (src/modules/events/). Its position is `id` on SQLite, where
 * the single writer makes id order the commit order. On PostgreSQL ids are
 * taken before commit, so a later id can commit first: the position is the
 * writing transaction's id (`xid`, taken by default from pg_current_xact_id())
 * and then `id`, and a reader only reads below pg_snapshot_xmin, under which
 * no transaction can still commit (docs/webhooks.md).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  let table = db.schema
    .createTable('events')
    // AUTOINCREMENT on SQLite: an id is never reused, even after the newest rows were pruned.
    .addColumn('id', idType, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    );
  if (postgres)
    table = table.addColumn('xid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`));
  await table
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** `plan:7`, `member:42`, `policy:1`: deliveries of one resource to one endpoint go in order. */
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('occurred_at', timestamp, (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_facility_position')
    .on('events')
    .columns(postgres ? ['facility_id', 'xid', 'id'] : ['facility_id', 'id'])
    .execute();
  await db.schema.createIndex('events_occurred_at').on('events').column('occurred_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
