import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * CSV imports of members as jobs (src/modules/members/csv/). A job row is
 * made before its upload's body is read (`receiving`), so the partial unique
 * index keeps one unfinished import per facility, refused before any byte is
 * stored. The body is kept in chunks of about 64 KiB while it streams in and
 * until the job ends. `locked_until` and `lease_token` are the lease of the
 * process receiving or running it: a process that dies leaves the job to any
 * other once the lease ends. An `on_error=abort` import keeps, per row it
 * wrote, what it needs to undo that write.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  const count = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await db.schema
    .createTable('member_imports')
    .addColumn('id', idType, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('receiving', 'queued', 'running', 'succeeded', 'failed')`),
    )
    .addColumn('phase', 'text', (c) => c.check(sql`phase in ('checking', 'writing', 'undoing')`))
    .addColumn('dry_run', 'integer', (c) => c.notNull().check(sql`dry_run in (0, 1)`))
    .addColumn('match_by', 'text', (c) => c.notNull())
    .addColumn('on_error', 'text', (c) => c.notNull())
    .addColumn('api_key_id', idType)
    .addColumn('api_key_name', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('bytes', idType, count)
    .addColumn('rows_total', 'integer')
    .addColumn('rows_done', 'integer', count)
    .addColumn('created', 'integer', count)
    .addColumn('updated', 'integer', count)
    .addColumn('unchanged', 'integer', count)
    .addColumn('failed', 'integer', count)
    .addColumn('errors_omitted', 'integer', count)
    /** JSON array: the row errors listed so far (at most 1,000). */
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
    /** JSON: the finished job's report. */
    .addColumn('report', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', count)
    .addColumn('lease_token', 'text')
    .addColumn('locked_until', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('started_at', timestamp)
    .addColumn('finished_at', timestamp)
    .addColumn('expires_at', timestamp)
    .execute();
  await db.schema
    .createIndex('member_imports_one_unfinished')
    .on('member_imports')
    .column('facility_id')
    .unique()
    .where(sql.ref('state'), 'in', sql`('receiving', 'queued', 'running')`)
    .execute();
  await db.schema
    .createIndex('member_imports_facility')
    .on('member_imports')
    .columns(['facility_id', 'id'])
    .execute();
  await db.schema.createIndex('member_imports_state').on('member_imports').columns(['state', 'id']).execute();
  await db.schema.createIndex('member_imports_expiry').on('member_imports').column('expires_at').execute();

  await db.schema
    .createTable('member_import_chunks')
    .addColumn('import_id', idType, (c) => c.notNull().references('member_imports.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_import_chunks_pk', ['import_id', 'seq'])
    .execute();

  await db.schema
    .createTable('member_import_writes')
    .addColumn('import_id', idType, (c) => c.notNull().references('member_imports.id').onDelete('cascade'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('member_id', idType, (c) => c.notNull())
    /** JSON: the member and its freezes before the row's PATCH; null for a member the row created. */
    .addColumn('before', 'text')
    .addPrimaryKeyConstraint('member_import_writes_pk', ['import_id', 'row'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_import_writes').execute();
  await db.schema.dropTable('member_import_chunks').execute();
  await db.schema.dropTable('member_imports').execute();
}
