import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * One row per periodic job (src/jobs/): when it is next due and until when a
 * process holds it. A process runs a job only after moving `next_run_at` on in
 * one conditional UPDATE, so each due run happens once across workers and
 * instances.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const timestamp = dialectOf(db) === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('periodic_jobs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', timestamp, (c) => c.notNull())
    .addColumn('leased_until', timestamp)
    .addColumn('last_started_at', timestamp)
    .addColumn('last_finished_at', timestamp)
    .addColumn('last_error', 'text')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('periodic_jobs').execute();
}
