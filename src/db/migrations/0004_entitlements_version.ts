import type { Kysely } from 'kysely';

/**
 * A write counter for a plan's entitlements: their ETag must change with every
 * write, even one that brings the set back to an earlier value.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('entitlements_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('entitlements_version').execute();
}
