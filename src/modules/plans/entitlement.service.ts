import { AppError, type FieldError } from '../../core/errors.js';
import { assertIfMatch, etagOf } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { diffFields, entitlementFields } from '../../journal/change-diff.js';
import type { Change } from '../../journal/journal.js';
import { type WriteTarget, writeExisting } from '../../journal/write-path.js';
import type { AuditAction } from '../audit/audit.schemas.js';
import {
  bumpEntitlementsVersion,
  countEntitlements,
  deleteEntitlement,
  findEntitlement,
  listEntitlements,
  replaceEntitlements,
  upsertEntitlement,
} from './entitlement.repository.js';
import {
  type Entitlement,
  entitlementCollectionRepresentation,
  entitlementRepresentation,
  MAX_ENTITLEMENTS_PER_PLAN,
} from './entitlement.schemas.js';
import type { PlanRecord } from './plan.repository.js';
import { getPlanForEntitlements, planNotFound } from './plan.service.js';
import './plan.problems.js';
import './plan.events.js';

/** What the entitlement routes answer with: the data and the write counter that goes into its ETag. */
export interface Versioned<T> {
  value: T;
  version: number;
}

export async function getEntitlements(
  db: Executor,
  facilityId: number,
  planId: number,
): Promise<Versioned<Entitlement[]>> {
  const { entitlementsVersion } = await getPlanForEntitlements(db, facilityId, planId, { write: false });
  return { value: await listEntitlements(db, planId), version: entitlementsVersion };
}

/** The entitlements of a plan the caller has just read in its facility (an access decision): no second read of the plan. */
export async function listEntitlementsOfPlan(db: Executor, planId: number): Promise<Entitlement[]> {
  return listEntitlements(db, planId);
}

/** Replaces the whole set atomically; the array and the map form mean the same. */
export async function replacePlanEntitlements(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  body: Entitlement[] | Record<string, Entitlement['value']>,
): Promise<Versioned<Entitlement[]>> {
  const entitlements = Array.isArray(body)
    ? body
    : Object.entries(body).map(([key, value]) => ({ key, value }));
  rejectDuplicateKeys(entitlements);
  const target = { ...entitlementsOf(facilityId, planId), etag: collectionEtag };
  return writeExisting(db, context, target, async ({ trx, record }, { entitlementsVersion }) => {
    const before = await listEntitlements(trx, planId);
    await replaceEntitlements(trx, planId, entitlements);
    const after = await listEntitlements(trx, planId);
    const version = await commitEntitlementChange(trx, record, {
      facilityId,
      planId,
      action: 'update',
      before,
      after,
      version: entitlementsVersion,
    });
    return { value: after, version };
  });
}

/**
 * The tags If-Match may name for a write of one entitlement: its own (from
 * the answer to its PUT) or the collection's (from GET …/entitlements, the
 * only read there is). Both carry the plan's entitlements counter, so either
 * says "nothing changed since I read it".
 */
function oneEntitlementEtags(version: number): string[] {
  return [etagOf(entitlementRepresentation, version), etagOf(entitlementCollectionRepresentation, version)];
}

/** Sets one entitlement; `created` tells whether the key is new. */
export async function setPlanEntitlement(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  entitlement: Entitlement,
): Promise<Versioned<Entitlement> & { created: boolean }> {
  const target = entitlementsOf(facilityId, planId);
  return writeExisting(db, context, target, async ({ trx, record }, { entitlementsVersion }) => {
    const existing = await findEntitlement(trx, planId, entitlement.key);
    // If-Match names the entitlement: a key that does not exist yet has no tag to match (412, even *).
    assertIfMatch(context.ifMatch, existing && oneEntitlementEtags(entitlementsVersion));
    if (!existing && (await countEntitlements(trx, planId)) >= MAX_ENTITLEMENTS_PER_PLAN) {
      throw new AppError(
        'validation_error',
        `Plan ${planId} already has ${MAX_ENTITLEMENTS_PER_PLAN} entitlements, the most a plan can have`,
        {
          errors: [
            {
              location: 'path',
              field: 'key',
              message: `a plan has at most ${MAX_ENTITLEMENTS_PER_PLAN} entitlements`,
            },
          ],
        },
      );
    }
    await upsertEntitlement(trx, planId, entitlement.key, entitlement.value);
    const version = await commitEntitlementChange(trx, record, {
      facilityId,
      planId,
      action: existing ? 'update' : 'create',
      before: existing ? [existing] : [],
      after: [entitlement],
      version: entitlementsVersion,
    });
    return { value: entitlement, version, created: !existing };
  });
}

export async function removePlanEntitlement(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  key: string,
) {
  await writeExisting(db, context, entitlementsOf(facilityId, planId), async ({ trx, record }, plan) => {
    const { entitlementsVersion } = plan;
    const existing = await findEntitlement(trx, planId, key);
    if (!existing) throw new AppError('entitlement_not_found', `Plan ${planId} has no entitlement "${key}"`);
    assertIfMatch(context.ifMatch, oneEntitlementEtags(entitlementsVersion));
    await deleteEntitlement(trx, planId, key);
    await commitEntitlementChange(trx, record, {
      facilityId,
      planId,
      action: 'delete',
      before: [existing],
      after: [],
      version: entitlementsVersion,
    });
  });
}

/**
 * Finishes a change of a plan's entitlements: a real change advances their
 * write counter and is audited as one resource whose fields are the keys; a
 * no-op changes neither. Returns the counter after the write.
 */
async function commitEntitlementChange(
  trx: Executor,
  record: (change: Change) => void,
  change: {
    facilityId: number;
    planId: number;
    action: AuditAction;
    before: Entitlement[];
    after: Entitlement[];
    /** The counter before this write. */
    version: number;
  },
): Promise<number> {
  const before = entitlementFields(change.before);
  const after = entitlementFields(change.after);
  if (Object.keys(diffFields(before, after)).length === 0) return change.version;
  record({
    facilityId: change.facilityId,
    resourceType: 'entitlements',
    resourceId: change.planId,
    action: change.action,
    before,
    after,
  });
  return bumpEntitlementsVersion(trx, change.planId);
}

/**
 * A plan's entitlements as one resource a write changes: the plan locked
 * (404 plan_not_found; 409 plan_archived when soft-deleted), with the write
 * counter that is part of their ETags.
 */
function entitlementsOf(facilityId: number, planId: number): WriteTarget<PlanRecord> {
  return {
    lock: async (trx) => getPlanForEntitlements(trx, facilityId, planId, { write: true }),
    notFound: () => planNotFound(facilityId, planId),
  };
}

const collectionEtag = ({ entitlementsVersion }: PlanRecord) =>
  etagOf(entitlementCollectionRepresentation, entitlementsVersion);

function rejectDuplicateKeys(entitlements: Entitlement[]): void {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  entitlements.forEach((entitlement, index) => {
    if (seen.has(entitlement.key)) {
      errors.push({
        location: 'body',
        field: `/entitlements/${index}/key`,
        message: `duplicates the key "${entitlement.key}"`,
      });
    }
    seen.add(entitlement.key);
  });
  if (errors.length > 0) {
    throw new AppError('validation_error', 'Each entitlement key may appear only once', { errors });
  }
}
