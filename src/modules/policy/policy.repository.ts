import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { type PointReadOptions, pointRead } from '../../db/point-read.js';
import type { PoliciesTable } from '../../db/schema.js';
import { DEFAULT_POLICY, type Policy, type PolicySettings } from './policy.schemas.js';

type PolicyRow = Selectable<PoliciesTable>;

function toPolicy(row: PolicyRow): Policy {
  return {
    ...row,
    allow_freeze: row.allow_freeze === 1,
    require_waiver: row.require_waiver === 1,
    opening_hours: row.opening_hours === null ? null : JSON.parse(row.opening_hours),
    closures: JSON.parse(row.closures),
    visit_limit_mode: row.visit_limit_mode as Policy['visit_limit_mode'],
    week_starts_on: row.week_starts_on as Policy['week_starts_on'],
  };
}

function toColumns(settings: Partial<PolicySettings>) {
  const { allow_freeze, require_waiver, opening_hours, closures, ...rest } = settings;
  return {
    ...rest,
    ...(allow_freeze === undefined ? {} : { allow_freeze: allow_freeze ? 1 : 0 }),
    ...(require_waiver === undefined ? {} : { require_waiver: require_waiver ? 1 : 0 }),
    ...(opening_hours === undefined
      ? {}
      : { opening_hours: opening_hours === null ? null : JSON.stringify(opening_hours) }),
    ...(closures === undefined ? {} : { closures: JSON.stringify(closures) }),
  };
}

/** Every read of a policy and every create of a member reads it. */
const readPolicyRow = pointRead<PolicyRow>({ table: 'policies', key: 'facility_id', lockMode: 'update' });

export async function findPolicyByFacilityId(
  db: Executor,
  facilityId: number,
  options: PointReadOptions = {},
): Promise<Policy | undefined> {
  // Locking serializes concurrent PATCHes on PostgreSQL (If-Match, no lost update).
  const row = await readPolicyRow(db, facilityId, facilityId, options);
  return row && toPolicy(row);
}

/**
 * Inserts the default policy unless one exists. ON CONFLICT DO NOTHING makes
 * concurrent first reads safe: exactly one insert wins, the others no-op.
 */
export async function insertDefaultPolicy(db: Executor, facilityId: number, now: string): Promise<void> {
  await db
    .insertInto('policies')
    .values({
      facility_id: facilityId,
      ...toColumns(DEFAULT_POLICY),
      created_at: now,
      updated_at: now,
    } as never)
    .onConflict((oc) => oc.column('facility_id').doNothing())
    .execute();
}

export async function updatePolicy(
  db: Executor,
  facilityId: number,
  changes: Partial<PolicySettings>,
  now: string,
): Promise<Policy> {
  const row = await db
    .updateTable('policies')
    .set({ ...toColumns(changes), updated_at: now })
    .where('facility_id', '=', facilityId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPolicy(row);
}

/** The stored time zones of these facilities, by facility id (those with no policy are left out). */
export async function findTimeZones(
  db: Executor,
  facilityIds: readonly number[],
): Promise<Map<number, string>> {
  if (facilityIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('policies')
    .select(['facility_id', 'timezone'])
    .where('facility_id', 'in', facilityIds)
    .execute();
  return new Map(rows.map((row) => [row.facility_id, row.timezone]));
}
