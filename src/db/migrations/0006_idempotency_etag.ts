import type { Kysely } from 'kysely';

/**
 * The ETag sent with a stored answer, so that a replay carries it again. An
 * ETag is no longer a hash of the body (src/http/etag.ts) and cannot be
 * computed again from it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('response_etag', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('response_etag').execute();
}
