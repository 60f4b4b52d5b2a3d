import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { grantsAllow, type RoleGrant } from '../../core/roles.js';

/**
 * Whom a caller may manage: an owner for every facility, anyone; an owner
 * of some facilities, the people whose every role is in those facilities,
 * and only with roles in them. So no one hands out, or takes away, more
 * than they hold.
 */
export function assertMayGrant(principal: Principal, grants: readonly RoleGrant[]): void {
  for (const grant of grants) {
    if (
      !grantsAllow(principal.grants, 'staff', grant.facilityId ?? undefined) ||
      !coversFacility(principal, grant)
    ) {
      const where = grant.facilityId === null ? 'every facility' : `facility ${grant.facilityId}`;
      throw new AppError('forbidden', `You may not give or change a role for ${where}`);
    }
  }
}

function coversFacility(principal: Principal, grant: RoleGrant): boolean {
  return principal.grants.some(
    (own) =>
      (own.role === 'owner' || own.role === 'admin') &&
      (own.facilityId === null || own.facilityId === grant.facilityId),
  );
}

/** A person with no role yet (just invited with none) is managed by any owner. */
export function assertMayManage(
  principal: Principal,
  target: { id: number; roles: readonly RoleGrant[] },
): void {
  if (principal.staffUserId === target.id) {
    throw new AppError('forbidden', 'You may not change your own roles or state: ask another owner');
  }
  assertMayGrant(principal, target.roles);
}
