import { changedFields } from '../../core/changes.js';
import { AppError } from '../../core/errors.js';
import { etagOf, writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import type { PageRead } from '../../db/page-rows.js';
import { entitlementFields } from '../../journal/change-diff.js';
import { type WriteTarget, writeExisting, writeNew } from '../../journal/write-path.js';
import { readPolicySettings } from '../policy/policy.service.js';
import { replaceEntitlements } from './entitlement.repository.js';
import type { Entitlement } from './entitlement.schemas.js';
import {
  deletePlanById,
  findPlanById,
  findPlanRecordById,
  insertPlan,
  listPlans,
  type PlanRecord,
  type PlanValues,
  updatePlan,
} from './plan.repository.js';
import { type Plan, type PlanCreate, type PlanUpdate, planRepresentation } from './plan.schemas.js';
import './plan.problems.js';
import './plan.events.js';

export async function getPlan(db: Executor, facilityId: number, planId: number): Promise<Plan> {
  const plan = await findPlanById(db, facilityId, planId);
  if (!plan) throw planNotFound(facilityId, planId);
  return plan;
}

/**
 * The plan, or undefined, for another module's rules (a member joining it):
 * with `lock`, locked for the rest of the transaction, so that writes that
 * count its seats count one after another.
 */
export async function findPlan(
  db: Executor,
  facilityId: number,
  planId: number,
  options: { lock?: boolean } = {},
): Promise<Plan | undefined> {
  return findPlanById(db, facilityId, planId, options);
}

/**
 * The plan whose entitlements are read or written, with their write counter:
 * 404 when it is not this facility's. For a write it is also locked for the
 * rest of the transaction, and a soft-deleted plan is 409 plan_archived.
 */
export async function getPlanForEntitlements(
  db: Executor,
  facilityId: number,
  planId: number,
  options: { write: boolean },
): Promise<PlanRecord> {
  const record = await findPlanRecordById(db, facilityId, planId, { lock: options.write });
  if (!record) throw planNotFound(facilityId, planId);
  if (options.write && record.plan.deleted_at !== null) throw planArchived(planId);
  return record;
}

export async function listPlansOfFacility(
  db: Executor,
  facilityId: number,
  filter: { sportId?: number; includeInactive: boolean },
  page: PageRead,
): Promise<Plan[]> {
  return listPlans(db, facilityId, filter, page);
}

/**
 * The plan templates a plan may be made from. The catalog (templates/) is
 * one; this module names only what it needs, so that it does not depend on it.
 */
export interface PlanTemplates {
  findById(id: number): PlanTemplate | undefined;
}

type PlanTemplate = Pick<
  PlanValues,
  'description' | 'sport_id' | 'price_amount' | 'currency' | 'billing_period' | 'duration_days'
> & {
  id: number;
  entitlements: Entitlement[];
};

export async function createPlan(
  db: Db,
  context: WriteContext<Plan>,
  templates: PlanTemplates,
  facilityId: number,
  body: PlanCreate,
): Promise<Plan> {
  const template = body.template_id == null ? undefined : templates.findById(body.template_id);
  if (body.template_id != null && !template) {
    throw new AppError('invalid_template', `There is no plan template with id ${body.template_id}`);
  }
  return writeNew(db, context, async ({ trx, now, record }) => {
    const policy = await readPolicySettings(trx, facilityId);
    const values: PlanValues = {
      name: body.name,
      description: body.description !== undefined ? body.description : (template?.description ?? null),
      sport_id: body.sport_id !== undefined ? body.sport_id : (template?.sport_id ?? null),
      template_id: template?.id ?? null,
      price_amount: body.price_amount ?? template?.price_amount ?? 0,
      currency: body.currency ?? template?.currency ?? policy.currency,
      billing_period: body.billing_period ?? template?.billing_period ?? 'monthly',
      duration_days:
        body.duration_days !== undefined ? body.duration_days : (template?.duration_days ?? null),
      joining_fee_amount: body.joining_fee_amount ?? 0,
      max_members: body.max_members ?? null,
      is_active: body.is_active ?? true,
    };
    const plan = await insertPlan(trx, facilityId, values, now.toISOString()).catch(
      rethrowNameConflict(values.name),
    );
    const audit = { facilityId, resourceId: plan.id, action: 'create', before: null } as const;
    record({ ...audit, resourceType: 'plan', after: plan });
    if (template) {
      await replaceEntitlements(trx, plan.id, template.entitlements);
      record({ ...audit, resourceType: 'entitlements', after: entitlementFields(template.entitlements) });
    }
    return plan;
  });
}

/**
 * PATCH changes only the fields sent. A soft-deleted plan is read-only: the
 * one write it takes is exactly `{"is_active": true}`, which restores it.
 */
export async function patchPlan(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  patch: PlanUpdate,
): Promise<Plan> {
  return writeExisting(db, context, planTarget(facilityId, planId), async ({ trx, now, record }, current) => {
    const restoring = current.deleted_at !== null;
    if (restoring && !isRestore(patch)) throw planArchived(planId);
    const changes = changedFields(current, patch);
    if (!changes && !restoring) return current;
    const write = { ...changes, ...(restoring ? { deleted_at: null } : {}) };
    const updated = await updatePlan(
      trx,
      planId,
      write,
      writeTimeAfter(current.updated_at, now.getTime()),
    ).catch(rethrowNameConflict(write.name ?? current.name));
    record({
      facilityId,
      resourceType: 'plan',
      resourceId: planId,
      action: restoring ? 'restore' : 'update',
      before: current,
      after: updated,
    });
    return updated;
  });
}

/** Soft delete archives the plan; hard delete removes it and its entitlements. */
export async function deletePlan(
  db: Db,
  context: WriteContext,
  facilityId: number,
  planId: number,
  hard: boolean,
): Promise<void> {
  await writeExisting(db, context, planTarget(facilityId, planId), async ({ trx, now, record }, plan) => {
    const audit = { facilityId, resourceType: 'plan', resourceId: planId, before: plan } as const;
    if (hard) {
      // The members' RESTRICT foreign key refuses while any member (removed ones too) refers to the plan.
      await deletePlanById(trx, planId).catch((error: unknown) => {
        if (!isForeignKeyViolation(error)) throw error;
        throw planInUse(planId);
      });
      record({ ...audit, action: 'hard_delete', after: null });
    } else if (plan.deleted_at === null) {
      const at = writeTimeAfter(plan.updated_at, now.getTime());
      const archived = await updatePlan(trx, planId, { is_active: false, deleted_at: at }, at);
      record({ ...audit, action: 'delete', after: archived });
    }
  });
}

/** The plan a write changes: locked, 404 plan_not_found, If-Match against its representation. */
function planTarget(facilityId: number, planId: number): WriteTarget<Plan> {
  return {
    lock: (trx) => findPlanById(trx, facilityId, planId, { lock: true }),
    notFound: () => planNotFound(facilityId, planId),
    etag: (plan) => etagOf(planRepresentation, plan.updated_at),
  };
}

function isRestore(patch: PlanUpdate): boolean {
  const fields = Object.keys(patch);
  return fields.length === 1 && patch.is_active === true;
}

function rethrowNameConflict(name: string) {
  return (error: unknown): never => {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError('plan_name_conflict', `A plan named "${name}" already exists in this facility`);
  };
}

export function planNotFound(facilityId: number, planId: number): AppError {
  return new AppError('plan_not_found', `Facility ${facilityId} has no plan with id ${planId}`);
}

function planInUse(planId: number): AppError {
  return new AppError(
    'plan_in_use',
    `Plan ${planId} is referred to by members (removed ones included); it can only be archived`,
  );
}

function planArchived(planId: number): AppError {
  return new AppError(
    'plan_archived',
    `Plan ${planId} is archived (soft-deleted): it can only be restored, with a PATCH of exactly {"is_active": true}`,
  );
}
