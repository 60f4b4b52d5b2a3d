import { AppError } from '../../core/errors.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation, isUniqueViolationOf } from '../../db/errors.js';
import { findPlan } from '../plans/plan.service.js';
import { countSeatsTaken, type MemberValues } from './member.repository.js';
import './member.problems.js';

/** What a member's plan must allow: it is usable, it has a seat free, and the database agrees. */
export async function assertPlanUsable(trx: Executor, facilityId: number, planId: number) {
  const plan = await findPlan(trx, facilityId, planId);
  if (!plan?.is_active || plan.deleted_at !== null) {
    throw new AppError(
      'invalid_plan',
      plan ? `Plan ${planId} is not active` : `Facility ${facilityId} has no plan with id ${planId}`,
    );
  }
  return plan;
}

/** Locks the plan row (PostgreSQL) so concurrent sign-ups are counted one after another. */
export async function assertSeatFree(
  trx: Executor,
  context: WriteContext,
  facilityId: number,
  planId: number,
): Promise<void> {
  const plan = await findPlan(trx, facilityId, planId, { lock: true });
  if (!plan || plan.max_members === null) return;
  // Seats an import's dry run took in its earlier, rolled-back chunks (src/core/write-context.ts).
  const elsewhere = context.seatsTakenElsewhere?.(planId) ?? 0;
  if ((await countSeatsTaken(trx, planId)) + elsewhere >= plan.max_members) {
    throw new AppError('plan_full', `Plan ${planId} already has its maximum of ${plan.max_members} members`);
  }
}

/**
 * The database's own answer to a member write: a unique violation is an
 * email taken meanwhile; a foreign key violation is a plan hard-deleted after
 * assertPlanUsable read it (that read takes no lock), which the member may
 * no longer join.
 */
export function rethrowConstraintViolation(
  facilityId: number,
  member: Pick<MemberValues, 'email' | 'plan_id' | 'external_id'>,
) {
  return (error: unknown): never => {
    if (isUniqueViolationOf(error, 'external_id')) {
      throw new AppError(
        'member_external_id_conflict',
        `A member with external_id ${member.external_id} already exists in this facility`,
      );
    }
    if (isUniqueViolation(error)) {
      throw new AppError(
        'member_email_conflict',
        `A member with email ${member.email} already exists in this facility`,
      );
    }
    if (isForeignKeyViolation(error) && member.plan_id !== null) {
      throw new AppError('invalid_plan', `Facility ${facilityId} has no plan with id ${member.plan_id}`);
    }
    throw error;
  };
}
