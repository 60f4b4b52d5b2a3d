import { changedFields } from '../../core/changes.js';
import { AppError } from '../../core/errors.js';
import { etagOf, writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { changeIn, type Write, type WriteTarget, writeExisting } from '../../journal/write-path.js';
import { findPolicyByFacilityId, findTimeZones, insertPolicy, updatePolicy } from './policy.repository.js';
import {
  DEFAULT_POLICY,
  type Policy,
  type PolicySettings,
  type PolicyUpdate,
  policyRepresentation,
} from './policy.schemas.js';

export type { PolicySettings };

import { assertTimeZoneName } from './time-zone.js';
import './policy.events.js';

/**
 * When a policy never changed was "created": no row holds it, so its
 * timestamps, and so its ETag, are the same on every read and every instance
 * until its first change (docs/decisions.md, Policy).
 */
export const UNSTORED_POLICY_AT = new Date(0).toISOString();

/** The defaults, as the policy of a facility that never changed it. */
function defaultPolicy(facilityId: number): Policy {
  return {
    facility_id: facilityId,
    ...DEFAULT_POLICY,
    created_at: UNSTORED_POLICY_AT,
    updated_at: UNSTORED_POLICY_AT,
  };
}

/** The facility's policy: the stored one, else the defaults. A read writes nothing. */
export async function readPolicy(db: Executor, facilityId: number): Promise<Policy> {
  return (await findPolicyByFacilityId(db, facilityId)) ?? defaultPolicy(facilityId);
}

/** Settings that other resources depend on; the defaults when no policy was ever stored. */
export async function readPolicySettings(db: Executor, facilityId: number): Promise<PolicySettings> {
  return readPolicy(db, facilityId);
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
  if (patch.timezone !== undefined) assertTimeZoneName(patch.timezone);
  return writeExisting(db, context, policyTarget(facilityId), (write, current) =>
    changePolicy(write, facilityId, current, patch),
  );
}

/** Changes a facility's policy inside a write the caller holds: a new facility's time zone and currency. */
export async function changePolicyIn(write: Write, facilityId: number, patch: PolicyUpdate): Promise<Policy> {
  if (patch.timezone !== undefined) assertTimeZoneName(patch.timezone);
  return changeIn(write, policyTarget(facilityId), (inner, current) =>
    changePolicy(inner, facilityId, current, patch),
  );
}

/** The policy a write changes: the stored one (locked), or the defaults when none is stored. */
interface CurrentPolicy {
  policy: Policy;
  stored: boolean;
}

async function changePolicy(
  write: Write,
  facilityId: number,
  { policy: current, stored }: CurrentPolicy,
  patch: PolicyUpdate,
): Promise<Policy> {
  const changes = changedFields(current, patch);
  if (!changes) return current;
  const at = writeTimeAfter(current.updated_at, write.now.getTime());
  const updated = stored
    ? await updatePolicy(write.trx, facilityId, changes, at)
    : await insertPolicy(write.trx, facilityId, { ...DEFAULT_POLICY, ...changes }, at);
  // Another first write stored the policy since this one read the defaults: start over on what it stored
  // (its new ETag fails an If-Match that named the defaults' one).
  if (!updated)
    return changeIn(write, policyTarget(facilityId), (again, latest) =>
      changePolicy(again, facilityId, latest, patch),
    );
  write.record({
    facilityId,
    resourceType: 'policy',
    resourceId: facilityId,
    action: 'update',
    // The defaults were never created: the first change is told against them, not as a new created_at.
    before: stored ? current : { ...current, created_at: updated.created_at },
    after: updated,
  });
  return updated;
}

/** The facility's policy as a write changes it: the stored one, locked, else the defaults. */
function policyTarget(facilityId: number): WriteTarget<CurrentPolicy> {
  return {
    lock: async (trx) => {
      const stored = await findPolicyByFacilityId(trx, facilityId, { lock: true });
      return stored ? { policy: stored, stored: true } : { policy: defaultPolicy(facilityId), stored: false };
    },
    notFound: () => new AppError('internal_error', `The policy of facility ${facilityId} was not read`),
    etag: ({ policy }) => etagOf(policyRepresentation, policy.updated_at),
  };
}
