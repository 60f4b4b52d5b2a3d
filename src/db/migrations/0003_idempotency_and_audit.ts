import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('response_location', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('completed_at', timestamp)
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on('idempotency_keys')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', idType, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('api_key_id', idType)
    .addColumn('api_key_name', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('occurred_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_facility_id')
    .on('audit_events')
    .columns(['facility_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
  await db.schema.dropTable('idempotency_keys').execute();
}
