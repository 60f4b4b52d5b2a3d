import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('api_keys')
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('facility_ids', 'text')
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', postgres ? 'timestamptz' : 'text', (c) => c.notNull())
    .addColumn('revoked_at', postgres ? 'timestamptz' : 'text')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
