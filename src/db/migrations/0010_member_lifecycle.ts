import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * A member's fixed term (`ends_on`), why its status last changed
 * (`status_reason`), its waiver, and `next_change_on`: the first date, in the
 * facility's time zone, on which a scheduled change (a freeze starting or
 * ending, the term expiring) is due. The sweeper and reads look for due
 * members by that column alone, through a partial index.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const date = postgres ? 'date' : 'text';
  const timestamp = postgres ? 'timestamptz' : 'text';
  await db.schema.alterTable('members').addColumn('ends_on', date).execute();
  await db.schema.alterTable('members').addColumn('status_reason', 'text').execute();
  await db.schema.alterTable('members').addColumn('waiver_signed_at', timestamp).execute();
  await db.schema.alterTable('members').addColumn('next_change_on', date).execute();
  await db.schema
    .createIndex('members_next_change_on')
    .on('members')
    .columns(['next_change_on'])
    .where('next_change_on', 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('members_next_change_on').execute();
  for (const column of ['next_change_on', 'waiver_signed_at', 'status_reason', 'ends_on']) {
    await db.schema.alterTable('members').dropColumn(column).execute();
  }
}
