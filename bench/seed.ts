/**
 * Seeds a realistic dataset straight into the database (SQL set operations,
 * not the API, so a million members take seconds): one large facility,
 * `smallFacilities` facilities of 1,000 members, 20 plans per facility with
 * entitlements, members spread over statuses, roles, sports and plans.
 */
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashCredentialValue, lastFourOf } from '../src/modules/members/credentials/credential-value.js';

export const LARGE_FACILITY = 1;
export const PLANS_PER_FACILITY = 20;
export const SMALL_FACILITY_MEMBERS = 1000;

export interface Seeded {
  largeMembers: number;
  smallFacilities: number[];
  memberIdRange: [number, number];
  /** Members of smallFacilities[0]. */
  smallMemberIdRange: [number, number];
  planIdRange: [number, number];
}

export async function seed(database: Database, largeMembers: number, smallFacilities = 20): Promise<Seeded> {
  const { db } = database;
  await migrateToLatest(db);
  const now = new Date().toISOString();
  const facilities = [LARGE_FACILITY, ...Array.from({ length: smallFacilities }, (_, i) => i + 2)];
  for (const facility of facilities) {
    const plans = Array.from({ length: PLANS_PER_FACILITY }, (_, i) => ({
      facility_id: facility,
      name: `Plan ${i + 1}`,
      name_folded: `plan ${i + 1}`,
      description: 'Seeded for the benchmark',
      sport_id: (i % 5) + 1,
      template_id: null,
      price_amount: 1000 + i * 100,
      currency: 'USD',
      billing_period: 'monthly',
      duration_days: null,
      joining_fee_amount: 0,
      max_members: null,
      is_active: 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }));
    const inserted = await db.insertInto('plans').values(plans).returning('id').execute();
    const entitlements = inserted.flatMap(({ id }) => [
      { plan_id: id, key: 'guest_passes_per_month', value_json: '2' },
      { plan_id: id, key: 'classes_per_week', value_json: '3' },
      { plan_id: id, key: 'open_gym_access', value_json: 'true' },
    ]);
    await db.insertInto('entitlements').values(entitlements).execute();
    const firstPlan = inserted[0].id;
    const count = facility === LARGE_FACILITY ? largeMembers : SMALL_FACILITY_MEMBERS;
    await insertMembers(database, facility, count, firstPlan, now);
  }
  await insertCredentials(database, LARGE_FACILITY, largeMembers, now);
  const memberIds = (facility: number) =>
    db
      .selectFrom('members')
      .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max')])
      .where('facility_id', '=', facility)
      .executeTakeFirstOrThrow();
  const members = await memberIds(LARGE_FACILITY);
  const smallMembers = await memberIds(facilities[1]);
  const plans = await db
    .selectFrom('plans')
    .select((eb) => [eb.fn.min('id').as('min'), eb.fn.max('id').as('max')])
    .where('facility_id', '=', LARGE_FACILITY)
    .executeTakeFirstOrThrow();
  // A table in use has been vacuumed: without it the first scenarios would
  // pay for setting hint bits and share the CPU with autovacuum.
  await (database.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
  return {
    largeMembers,
    smallFacilities: facilities.slice(1),
    memberIdRange: [Number(members.min), Number(members.max)],
    smallMemberIdRange: [Number(smallMembers.min), Number(smallMembers.max)],
    planIdRange: [Number(plans.min), Number(plans.max)],
  };
}

const STATUS = `case i % 20 when 0 then 'pending' when 1 then 'frozen' when 2 then 'cancelled' when 3 then 'suspended' else 'active' end`;
const ROLE = `case i % 10 when 0 then 'coach' when 1 then 'staff' when 2 then 'admin' else 'member' end`;

/**
 * Whether the large facility's i-th seeded member (from 1) is let in: active
 * (STATUS), on an active plan whose entitlements set no visit limit, under
 * the default policy (open at all hours, no waiver, no anti-passback, no
 * occupancy limit). Any number of recorded decisions for them are allowed.
 */
export const seededMemberAllowed = (i: number) => i % 20 >= 4;

/** The card value of the large facility's i-th seeded member (from 1). */
export const seededCredential = (i: number) => `bench-card-${i}`;

/** Rows a credential INSERT takes: 7 columns, under SQLite's 32,766 variables. */
const CREDENTIAL_BATCH = 4000;

/**
 * A card for each of the facility's seeded members, stored as the service
 * stores one (SHA-256 and its last four characters), in batches in one
 * transaction: a million take seconds.
 */
async function insertCredentials(database: Database, facility: number, count: number, now: string) {
  const { min } = await database.db
    .selectFrom('members')
    .select((eb) => eb.fn.min('id').as('min'))
    .where('facility_id', '=', facility)
    .executeTakeFirstOrThrow();
  const first = Number(min);
  await database.db.transaction().execute(async (trx) => {
    for (let start = 1; start <= count; start += CREDENTIAL_BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(start + CREDENTIAL_BATCH, count + 1); i++) {
        const value = seededCredential(i);
        rows.push({
          facility_id: facility,
          member_id: first + i - 1,
          type: 'card' as const,
          value_hash: hashCredentialValue(value),
          value_last4: lastFourOf(value),
          label: null,
          created_at: now,
          revoked_at: null,
        });
      }
      await trx.insertInto('member_credentials').values(rows).execute();
    }
  });
}

/** The email of a facility's i-th seeded member (from 1), as insertMembers writes it. */
export const seededEmail = (facility: number, i: number) => `m${i}.f${facility}@example.com`;

async function insertMembers(
  database: Database,
  facility: number,
  count: number,
  firstPlan: number,
  now: string,
) {
  const columns = `facility_id, first_name, last_name, email, email_folded, phone, date_of_birth, sport_id, role,
    status, plan_id, joined_on, notes, status_changed_at, created_at, updated_at, deleted_at, search_text`;
  // ASCII, so its folded text (member-search-text.ts) is its lower case: written here in SQL.
  const searchText = `'member' || i || char(10) || 'surname' || (i % 5000) || char(10) || 'm' || i || '.f${facility}@example.com' || char(10) || char(10)`;
  const values = (
    cast: string,
  ) => `${facility}, 'Member' || i, 'Surname' || (i % 5000), 'm' || i || '.f${facility}@example.com',
    'm' || i || '.f${facility}@example.com', null, null, 1 + i % 5, ${ROLE}, ${STATUS}, ${firstPlan} + i % ${PLANS_PER_FACILITY},
    '2026-01-01'${cast}, null, '${now}'${cast === '' ? '' : '::timestamptz'}, '${now}'${cast === '' ? '' : '::timestamptz'},
    '${now}'${cast === '' ? '' : '::timestamptz'}, null, ${cast === '' ? searchText : searchText.replaceAll('char(10)', 'chr(10)')}`;
  if (database.dialect === 'postgres') {
    await sql
      .raw(
        `insert into members (${columns}) select ${values('::date')} from generate_series(1, ${count}) as g(i)`,
      )
      .execute(database.db);
  } else {
    await sql
      .raw(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
         insert into members (${columns}) select ${values('')} from n`,
      )
      .execute(database.db);
  }
}
