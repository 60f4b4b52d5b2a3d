import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * At the door (src/modules/members/credentials/, src/modules/access-decisions/,
 * src/modules/check-ins/): members' credentials, every recorded access
 * decision (a check-in, allowed or denied), the policy's rules for the door,
 * and a member's last check-in.
 *
 * A credential's value is stored as SHA-256 only, with its last four
 * characters for people to recognise it: a copy of the database clones no
 * card. Values are unique per facility among credentials not revoked.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const timestamp = postgres ? 'timestamptz' : 'text';
  const idType = postgres ? 'bigint' : 'integer';
  // biome-ignore lint/suspicious/noExplicitAny: see up()
  const identity = (c: any) =>
    postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable('member_credentials')
    .addColumn('id', idType, identity)
    .addColumn('facility_id', idType, (c) => c.notNull())
    .addColumn('member_id', idType, (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('card', 'qr', 'pin')`))
    .addColumn('value_hash', 'text', (c) => c.notNull())
    .addColumn('value_last4', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('revoked_at', timestamp)
    .execute();
  await db.schema
    .createIndex('member_credentials_value_unique')
    .on('member_credentials')
    .columns(['facility_id', 'value_hash'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('member_credentials_member')
    .on('member_credentials')
    .columns(['member_id', 'id'])
    .execute();
  // A revoked value is still found (credential_revoked, not credential_unknown).
  await db.schema
    .createIndex('member_credentials_value')
    .on('member_credentials')
    .columns(['facility_id', 'value_hash', 'id'])
    .execute();

  await db.schema
    .createTable('check_ins')
    .addColumn('id', idType, identity)
    .addColumn('facility_id', idType, (c) => c.notNull())
    // No foreign keys: the log outlives a hard-deleted member or credential.
    .addColumn('member_id', idType)
    .addColumn('credential_id', idType)
    .addColumn('credential_last4', 'text')
    .addColumn('area', 'text')
    .addColumn('guests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('allow', 'deny')`))
    /** JSON array of the reasons, as the decision answered them. */
    .addColumn('reasons', 'text', (c) => c.notNull())
    /** JSON: the actor, as the journal names it. */
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('checked_in_at', timestamp, (c) => c.notNull())
    .addColumn('checked_out_at', timestamp)
    .execute();
  await db.schema.createIndex('check_ins_facility').on('check_ins').columns(['facility_id', 'id']).execute();
  await db.schema
    .createIndex('check_ins_member')
    .on('check_ins')
    .columns(['member_id', 'checked_in_at'])
    .execute();
  // Occupancy: allowed check-ins not checked out.
  await db.schema
    .createIndex('check_ins_present')
    .on('check_ins')
    .columns(['facility_id', 'checked_in_at'])
    .where(sql<boolean>`decision = 'allow' and checked_out_at is null`)
    .execute();

  const policy = db.schema.alterTable('policies');
  /** JSON: weekday → [{ opens, closes }]; null: always open. */
  await policy.addColumn('opening_hours', 'text').execute();
  /** JSON: [{ starts_on, ends_on, reason }], whole days closed. */
  await db.schema
    .alterTable('policies')
    .addColumn('closures', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('policies').addColumn('max_occupancy', 'integer').execute();
  await db.schema
    .alterTable('policies')
    .addColumn('anti_passback_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('policies')
    .addColumn('visit_limit_mode', 'text', (c) => c.notNull().defaultTo('block'))
    .execute();
  await db.schema
    .alterTable('policies')
    .addColumn('week_starts_on', 'text', (c) => c.notNull().defaultTo('monday'))
    .execute();
  await db.schema
    .alterTable('policies')
    .addColumn('occupancy_cutoff_minutes', 'integer', (c) => c.notNull().defaultTo(240))
    .execute();

  await db.schema.alterTable('members').addColumn('last_check_in_at', timestamp).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('last_check_in_at').execute();
  for (const column of [
    'occupancy_cutoff_minutes',
    'week_starts_on',
    'visit_limit_mode',
    'anti_passback_minutes',
    'max_occupancy',
    'closures',
    'opening_hours',
  ]) {
    await db.schema.alterTable('policies').dropColumn(column).execute();
  }
  await db.schema.dropTable('check_ins').execute();
  await db.schema.dropTable('member_credentials').execute();
}
