import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Dated freezes of a member. `ends_on` is null for the open-ended freeze a
 * PATCH to `frozen` opens. `state` is the schedule's own bookkeeping:
 * `scheduled` (not started), `under_way`, `ended` or `cancelled`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const date = postgres ? 'date' : 'text';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  await db.schema
    .createTable('member_freezes')
    .addColumn('id', idType, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('member_id', idType, (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('starts_on', date, (c) => c.notNull())
    .addColumn('ends_on', date)
    .addColumn('reason', 'text')
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('scheduled', 'under_way', 'ended', 'cancelled')`),
    )
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('cancelled_at', timestamp)
    .execute();
  await db.schema
    .createIndex('member_freezes_member_id')
    .on('member_freezes')
    .columns(['member_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_freezes').execute();
}
