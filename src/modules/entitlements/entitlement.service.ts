import type { Db, Executor } from '../../db/database.js';
import { AppError, type FieldError } from '../../http/errors.js';
import { assertIfMatch } from '../../http/etag.js';
import type { WriteContext } from '../../http/write-context.js';
import { type AuditAction, diffFields, entitlementFields, recordAuditEvent } from '../audit/audit.service.js';
import { getPlan, getWritablePlan } from '../plans/plan.service.js';
import {
  countEntitlements,
  deleteEntitlement,
  findEntitlement,
  listEntitlements,
  replaceEntitlements,
  upsertEntitlement,
} from './entitlement.repository.js';
import { type Entitlement, MAX_ENTITLEMENTS_PER_PLAN } from './entitlement.schemas.js';

export async function getEntitlements(db: Executor, facilityId: number, planId: number) {
  const plan = await getPlan(db, facilityId, planId);
  return listEntitlements(db, plan.id);
}

/** Replaces the whole set atomically; the array and the map form mean the same. */
export async function replacePlanEntitlements(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  body: Entitlement[] | Record<string, Entitlement['value']>,
): Promise<Entitlement[]> {
  const entitlements = Array.isArray(body)
    ? body
    : Object.entries(body).map(([key, value]) => ({ key, value }));
  rejectDuplicateKeys(entitlements);
  return db.transaction().execute(async (trx) => {
    await getWritablePlan(trx, facilityId, planId);
    const before = await listEntitlements(trx, planId);
    assertIfMatch(context.ifMatch, { entitlements: before });
    await replaceEntitlements(trx, planId, entitlements);
    const after = await listEntitlements(trx, planId);
    await recordEntitlementChange(trx, context, { facilityId, planId, action: 'update', before, after });
    return after;
  });
}

/** Sets one entitlement; `created` tells whether the key is new. */
export async function setPlanEntitlement(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  entitlement: Entitlement,
): Promise<{ entitlement: Entitlement; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    await getWritablePlan(trx, facilityId, planId);
    const existing = await findEntitlement(trx, planId, entitlement.key);
    assertIfMatch(context.ifMatch, existing);
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
    await recordEntitlementChange(trx, context, {
      facilityId,
      planId,
      action: existing ? 'update' : 'create',
      before: existing ? [existing] : [],
      after: [entitlement],
    });
    return { entitlement, created: !existing };
  });
}

export async function removePlanEntitlement(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  key: string,
) {
  await db.transaction().execute(async (trx) => {
    await getWritablePlan(trx, facilityId, planId);
    const existing = await findEntitlement(trx, planId, key);
    if (!existing) throw new AppError('entitlement_not_found', `Plan ${planId} has no entitlement "${key}"`);
    assertIfMatch(context.ifMatch, existing);
    await deleteEntitlement(trx, planId, key);
    await recordEntitlementChange(trx, context, {
      facilityId,
      planId,
      action: 'delete',
      before: [existing],
      after: [],
    });
  });
}

/** The entitlements of a plan are audited as one resource whose fields are the keys. */
async function recordEntitlementChange(
  trx: Executor,
  context: WriteContext,
  change: {
    facilityId: number;
    planId: number;
    action: AuditAction;
    before: Entitlement[];
    after: Entitlement[];
  },
) {
  const before = entitlementFields(change.before);
  const after = entitlementFields(change.after);
  if (Object.keys(diffFields(before, after)).length === 0) return;
  await recordAuditEvent(trx, context, {
    facilityId: change.facilityId,
    resourceType: 'entitlements',
    resourceId: change.planId,
    action: change.action,
    before,
    after,
  });
}

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
