import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Webhook delivery state per endpoint (src/modules/webhooks/): a cursor over
 * its facility's events, the lease of the process serving it, when it was
 * last served (round robin) and its consecutive failures. A write no longer
 * writes delivery rows: the worker reads the journal. A delivery row is the
 * log of one message's attempts, written by the worker, and holds a payload
 * only for a test ping (an event's payload is the event).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('cursor', idType, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('locked_until', timestamp).execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('last_served_at', timestamp).execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Deliveries already queued stay rows and are sent as before; the cursor starts after them.
  await sql`update webhook_endpoints set cursor = coalesce(
    (select max(events.id) from events where events.facility_id = webhook_endpoints.facility_id), 0)`.execute(
    db,
  );

  if (postgres) {
    await sql`alter table webhook_deliveries alter column payload drop not null`.execute(db);
  } else {
    await rebuildSqliteDeliveries(db);
  }
  await db.schema.dropIndex('webhook_deliveries_due').ifExists().execute();
  await db.schema
    .createIndex('webhook_deliveries_pending')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

/** SQLite cannot drop a NOT NULL: the table is made again with `payload` nullable. */
// biome-ignore lint/suspicious/noExplicitAny: see up()
async function rebuildSqliteDeliveries(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries_new')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'integer')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into webhook_deliveries_new select id, endpoint_id, event_id, message_id, type, resource,
    payload, status, attempts, next_attempt_at, locked_until, last_attempt_at, last_response_status, last_error,
    created_at from webhook_deliveries`.execute(db);
  await db.schema.dropTable('webhook_deliveries').execute();
  await sql`alter table webhook_deliveries_new rename to webhook_deliveries`.execute(db);
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'resource', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_pending').execute();
  for (const column of ['consecutive_failures', 'last_served_at', 'locked_until', 'cursor']) {
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
  }
}
