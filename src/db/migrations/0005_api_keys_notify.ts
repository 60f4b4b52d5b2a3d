import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * On PostgreSQL every change to api_keys (a revocation above all) is
 * announced on the `api_keys_changed` channel, so that every instance drops
 * the keys it verified before (src/db/change-counter.ts). SQLite needs no
 * trigger: its data_version tells the same.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`
    create function notify_api_keys_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('api_keys_changed', '');
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger api_keys_changed after insert or update or delete or truncate on api_keys
    for each statement execute function notify_api_keys_changed()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger api_keys_changed on api_keys`.execute(db);
  await sql`drop function notify_api_keys_changed()`.execute(db);
}
