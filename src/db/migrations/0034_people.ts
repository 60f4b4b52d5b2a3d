import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * People (src/modules/facilities/, src/modules/staff/, src/modules/session/):
 * facilities by name, staff users with roles per facility, their console
 * sessions and one-time links, and who did a write in the journal.
 *
 * A facility row exists for every facility named or created, and for every
 * facility a write has touched (the journal adds it; this migration adds
 * those written before). Any other id still works as before: it is a
 * facility with no name. Ids are given out above every id in use.
 *
 * Sessions and links are stored as SHA-256 of their secret only: a copy of
 * the database signs no one in.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  const identity = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('facilities')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('name_folded', 'text')
    .addColumn('address', 'text')
    .addColumn('contact_email', 'text')
    .addColumn('phone', 'text')
    .addColumn('archived_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();
  // Two facilities that are not archived never share a name, ignoring case.
  await db.schema
    .createIndex('facilities_name_unique')
    .on('facilities')
    .column('name_folded')
    .unique()
    .where(sql.ref('archived_at'), 'is', null)
    .execute();
  const now = postgres ? sql`now()` : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  await sql`insert into facilities (id, created_at, updated_at)
    select distinct facility_id, ${now}, ${now} from (
      select facility_id from plans union select facility_id from members
      union select facility_id from policies union select facility_id from webhook_endpoints
      union select facility_id from audit_events where facility_id > 0
    ) as used`.execute(db);

  await db.schema
    .createTable('staff_users')
    .addColumn('id', identity, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_folded', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('invited', 'active', 'disabled')`))
    .addColumn('password_hash', 'text')
    .addColumn('password_changed_at', timestamp)
    .addColumn('last_sign_in_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .execute();

  // A role for every facility (facility_id null) or for one.
  await db.schema
    .createTable('staff_roles')
    .addColumn('staff_user_id', idType, (c) => c.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('facility_id', idType)
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role in ('owner', 'manager', 'front_desk', 'viewer')`),
    )
    .execute();
  await sql`create unique index staff_roles_one_per_facility
    on staff_roles (staff_user_id, coalesce(facility_id, 0))`.execute(db);
  await db.schema.createIndex('staff_roles_facility').on('staff_roles').column('facility_id').execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', identity, (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('staff_user_id', idType, (c) => c.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('password', 'oidc', 'link')`))
    .addColumn('user_agent', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_user').on('staff_sessions').column('staff_user_id').execute();
  await db.schema.createIndex('staff_sessions_expiry').on('staff_sessions').column('expires_at').execute();

  // One-time links: an invitation, a password reset, the first owner's; and an OpenID sign-in under way.
  await db.schema
    .createTable('staff_links')
    .addColumn('secret_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) =>
      c.notNull().check(sql`purpose in ('invitation', 'password_reset', 'first_owner', 'oidc_sign_in')`),
    )
    .addColumn('staff_user_id', idType, (c) => c.references('staff_users.id').onDelete('cascade'))
    /** JSON: what the link's use needs (an OpenID sign-in's nonce and code verifier). */
    .addColumn('data', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addColumn('used_at', timestamp)
    .execute();
  await db.schema.createIndex('staff_links_expiry').on('staff_links').column('expires_at').execute();

  // Who did it: a staff user (signed in to the console) besides an API key.
  await db.schema.alterTable('audit_events').addColumn('staff_user_id', idType).execute();
  await db.schema.alterTable('member_imports').addColumn('staff_user_id', idType).execute();
  /** JSON: the event's actor, as the feed and webhooks show it. */
  await db.schema.alterTable('events').addColumn('actor', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('actor').execute();
  await db.schema.alterTable('member_imports').dropColumn('staff_user_id').execute();
  await db.schema.alterTable('audit_events').dropColumn('staff_user_id').execute();
  for (const table of ['staff_links', 'staff_sessions', 'staff_roles', 'staff_users', 'facilities']) {
    await db.schema.dropTable(table).execute();
  }
}
