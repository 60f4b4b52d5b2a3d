import type { Selectable } from 'kysely';
import { anyOf, batchReads, readsInBatches } from '../../db/batched-read.js';
import type { Db, Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type ParameterFunction, prepareQuery } from '../../db/prepared-query.js';
import type { PoliciesTable } from '../../db/schema.js';
import { DEFAULT_POLICY, type Policy, type PolicySettings } from './policy.schemas.js';

type PolicyRow = Selectable<PoliciesTable>;

function toPolicy(row: PolicyRow): Policy {
  return {
    ...row,
    allow_freeze: row.allow_freeze === 1,
    require_waiver: row.require_waiver === 1,
  };
}

function toColumns(settings: Partial<PolicySettings>) {
  const { allow_freeze, require_waiver, ...rest } = settings;
  return {
    ...rest,
    ...(allow_freeze === undefined ? {} : { allow_freeze: allow_freeze ? 1 : 0 }),
    ...(require_waiver === undefined ? {} : { require_waiver: require_waiver ? 1 : 0 }),
  };
}

/** Every read of a policy and every create of a member reads it: compiled once (prepareQuery). */
type PolicyKey = { facilityId: number };
const policyOf = (db: Db, param: ParameterFunction<PolicyKey>) =>
  db.selectFrom('policies').selectAll().where('facility_id', '=', param('facilityId'));
const selectPolicy = prepareQuery<PolicyKey, PolicyRow>(policyOf);
const selectPolicyForUpdate = prepareQuery<PolicyKey, PolicyRow>((db, param) =>
  policyOf(db, param).forUpdate(),
);

/** Reads of one facility's policy, gathered per turn on PostgreSQL (batchReads). */
const readPolicyInBatch = batchReads<PolicyRow>(
  (db, param) =>
    db
      .selectFrom('policies')
      .selectAll()
      .where('facility_id', '=', anyOf(param('keys'))),
  (policy) => policy.facility_id,
);

export async function findPolicyByFacilityId(
  db: Executor,
  facilityId: number,
  options: { lock?: boolean } = {},
): Promise<Policy | undefined> {
  if (options.lock !== true && readsInBatches(db)) {
    const row = await readPolicyInBatch(db, facilityId, facilityId);
    return row && toPolicy(row);
  }
  // Serializes concurrent PATCHes on PostgreSQL (If-Match, no lost update); SQLite writers are serial.
  const select = options.lock === true && dialectOf(db) === 'postgres' ? selectPolicyForUpdate : selectPolicy;
  const [row] = await select(db, { facilityId });
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
