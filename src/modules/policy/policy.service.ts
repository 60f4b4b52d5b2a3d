import { changedFields } from '../../core/changes.js';
import { AppError } from '../../core/errors.js';
import { etagOf, writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { changeIn, type Write, type WriteTarget, writeExisting } from '../../journal/write-path.js';
import {
  findPolicyByFacilityId,
  findTimeZones,
  insertDefaultPolicy,
  updatePolicy,
} from './policy.repository.js';
import {
  DEFAULT_POLICY,
  type Policy,
  type PolicySettings,
  type PolicyUpdate,
  policyRepresentation,
} from './policy.schemas.js';

export type { PolicySettings };

import { assertDoorFields } from './policy-door.rules.js';
import { assertTimeZoneName } from './time-zone.js';
import './policy.events.js';

/** The facility's policy, created with the defaults on first read. */
export async function getOrCreatePolicy(
  db: Executor,
  facilityId: number,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<Policy> {
  const existing = await findPolicyByFacilityId(db, facilityId, options);
  if (existing) return existing;
  await insertDefaultPolicy(db, facilityId, now.toISOString());
  const created = await findPolicyByFacilityId(db, facilityId, options);
  if (!created) throw new Error(`policy of facility ${facilityId} vanished after insert`);
  return created;
}

/** Settings that other resources depend on; the defaults when no policy was ever stored. */
export async function readPolicySettings(db: Executor, facilityId: number): Promise<PolicySettings> {
  return (await findPolicyByFacilityId(db, facilityId)) ?? DEFAULT_POLICY;
}

/** The time zone of each facility, in one read: the default for a facility with no policy stored. */
export async function readTimeZones(
  db: Executor,
  facilityIds: readonly number[],
): Promise<Map<number, string>> {
  const stored = await findTimeZones(db, [...new Set(facilityIds)]);
  return new Map(facilityIds.map((id) => [id, stored.get(id) ?? DEFAULT_POLICY.timezone]));
}

export async function patchPolicy(
  db: Db,
  context: WriteContext,
  facilityId: number,
  patch: PolicyUpdate,
): Promise<Policy> {
  assertPolicyUpdate(patch);
  return writeExisting(db, context, policyTarget(facilityId, context.now), (write, current) =>
    changePolicy(write, facilityId, current, patch),
  );
}

/** Changes a facility's policy inside a write the caller holds: a new facility's time zone and currency. */
export async function changePolicyIn(write: Write, facilityId: number, patch: PolicyUpdate): Promise<Policy> {
  assertPolicyUpdate(patch);
  return changeIn(write, policyTarget(facilityId, write.now), (inner, current) =>
    changePolicy(inner, facilityId, current, patch),
  );
}

/** What the schema cannot check: the time zone's name, the door rules' dates and intervals. */
function assertPolicyUpdate(patch: PolicyUpdate): void {
  if (patch.timezone !== undefined) assertTimeZoneName(patch.timezone);
  assertDoorFields(patch);
}

async function changePolicy(
  { trx, now, record }: Write,
  facilityId: number,
  current: Policy,
  patch: PolicyUpdate,
): Promise<Policy> {
  const changes = changedFields(current, patch);
  if (!changes) return current;
  const at = writeTimeAfter(current.updated_at, now.getTime());
  const updated = await updatePolicy(trx, facilityId, changes, at);
  record({
    facilityId,
    resourceType: 'policy',
    resourceId: facilityId,
    action: 'update',
    before: current,
    after: updated,
  });
  return updated;
}

/** The facility's policy as a write changes it: created with the defaults when missing, locked. */
function policyTarget(facilityId: number, now: Date): WriteTarget<Policy> {
  return {
    lock: (trx) => getOrCreatePolicy(trx, facilityId, now, { lock: true }),
    notFound: () =>
      new AppError('internal_error', `The policy of facility ${facilityId} could not be created`),
    etag: (policy) => etagOf(policyRepresentation, policy.updated_at),
  };
}
