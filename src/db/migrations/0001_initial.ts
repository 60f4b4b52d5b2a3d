import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  // Ids are 64-bit on PostgreSQL: the API accepts ids up to 2^53-1 and a
  // 32-bit column would turn a large (unknown) id into an error instead of 404.
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
  const idType = postgres ? 'bigint' : 'integer';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const date = postgres ? 'date' : 'text';
  const flag = (name: string) => (col: ColumnDefinitionBuilder) =>
    col.notNull().check(sql`${sql.ref(name)} in (0, 1)`);

  await db.schema
    .createTable('plans')
    .addColumn('id', idType, id)
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_folded', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('sport_id', idType)
    .addColumn('template_id', idType)
    .addColumn('price_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('billing_period', 'text', (c) => c.notNull())
    .addColumn('duration_days', 'integer')
    .addColumn('joining_fee_amount', 'integer', (c) => c.notNull())
    .addColumn('max_members', 'integer')
    .addColumn('is_active', 'integer', flag('is_active'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addColumn('deleted_at', timestamp)
    .execute();
  await db.schema
    .createIndex('plans_name_unique')
    .on('plans')
    .columns(['facility_id', 'name_folded'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('plans_facility_id').on('plans').columns(['facility_id', 'id']).execute();

  await db.schema
    .createTable('entitlements')
    .addColumn('plan_id', idType, (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('entitlements_pkey', ['plan_id', 'key'])
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('id', idType, id)
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('email_folded', 'text')
    .addColumn('phone', 'text')
    .addColumn('date_of_birth', date)
    .addColumn('sport_id', idType)
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // RESTRICT: a plan that any member refers to cannot be hard-deleted (plan_in_use).
    .addColumn('plan_id', idType, (c) => c.references('plans.id').onDelete('restrict'))
    .addColumn('joined_on', date, (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('status_changed_at', timestamp, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addColumn('deleted_at', timestamp)
    .execute();
  await db.schema
    .createIndex('members_email_unique')
    .on('members')
    .columns(['facility_id', 'email_folded'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('members_facility_id').on('members').columns(['facility_id', 'id']).execute();
  await db.schema.createIndex('members_plan_id').on('members').columns(['plan_id', 'status']).execute();

  await db.schema
    .createTable('policies')
    .addColumn('facility_id', idType, (c) => c.primaryKey())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('booking_window_days', 'integer', (c) => c.notNull())
    .addColumn('cancellation_cutoff_hours', 'integer', (c) => c.notNull())
    .addColumn('late_cancellation_fee_amount', 'integer', (c) => c.notNull())
    .addColumn('no_show_fee_amount', 'integer', (c) => c.notNull())
    .addColumn('max_active_bookings', 'integer', (c) => c.notNull())
    .addColumn('guest_passes_per_month', 'integer', (c) => c.notNull())
    .addColumn('allow_freeze', 'integer', flag('allow_freeze'))
    .addColumn('max_freeze_days_per_year', 'integer', (c) => c.notNull())
    .addColumn('min_member_age', 'integer', (c) => c.notNull())
    .addColumn('require_waiver', 'integer', flag('require_waiver'))
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['policies', 'members', 'entitlements', 'plans']) {
    await db.schema.dropTable(table).execute();
  }
}
