import { type Kysely, sql } from 'kysely';

/**
 * A member's id in the system the facility comes from (CSV import's
 * `match_by=external_id`): unique per facility among members not removed,
 * like the email, and enforced by the database so that two imports at once
 * cannot both create it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').addColumn('external_id', 'text').execute();
  await db.schema
    .createIndex('members_external_id_unique')
    .on('members')
    .columns(['facility_id', 'external_id'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('members_external_id_unique').execute();
  await db.schema.alterTable('members').dropColumn('external_id').execute();
}
