/**
 * Who may do what: the one permission table. Every API operation names the
 * permission it needs (its route's `config.permission`); a caller may call it
 * for a facility when one of its roles there (or for every facility) has that
 * permission. docs/security.md and each operation's OpenAPI description say
 * the same, from this table.
 */

/** The roles of staff users. */
export const STAFF_ROLES = ['owner', 'manager', 'front_desk', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * An API key takes a staff role, `admin` (all a key could do before roles:
 * as `owner`), or `door`: a device at the door, which asks for access
 * decisions and records check-outs and does nothing else, so a key stolen
 * from a reader in a hallway reads and changes nothing.
 */
export const KEY_ROLES = ['admin', ...STAFF_ROLES, 'door'] as const;
export type Role = (typeof KEY_ROLES)[number];

export const PERMISSIONS = [
  'account',
  'read',
  'members.write',
  'members.delete',
  'members.import',
  'plans.write',
  'policy.write',
  'webhooks',
  'staff',
  'api_keys',
  'facilities.write',
  'access',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each permission lets a caller do, as the docs say it. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  account:
    'see and end their own sessions and change their own password (anyone signed in, with or without a role)',
  read: 'read the facility (members, plans, policy, audit trail, change feed, exports)',
  'members.write': 'create and edit members, change their status, plan and cancel freezes',
  'members.delete': 'delete members',
  'members.import': 'import members from CSV',
  'plans.write': 'create, change and delete plans and their entitlements',
  'policy.write': "change the facility's policy",
  webhooks: 'read and manage webhook endpoints (they hold secrets and reach other systems)',
  staff: 'invite, change and disable staff users',
  api_keys: 'list, create and revoke API keys',
  'facilities.write': 'create, rename and archive facilities',
  access: 'ask for access decisions at the door (recording check-ins) and record check-outs',
};

const everything = new Set<Permission>(PERMISSIONS);
const manager = new Set<Permission>([
  'account',
  'read',
  'members.write',
  'members.delete',
  'members.import',
  'plans.write',
  'policy.write',
  'access',
]);

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  admin: everything,
  owner: everything,
  manager,
  front_desk: new Set<Permission>(['account', 'read', 'members.write', 'access']),
  viewer: new Set<Permission>(['account', 'read']),
  // `account`: any key reads its own session (GET /admin/session); a door's key has nothing else to see there.
  door: new Set<Permission>(['account', 'access']),
};

/** The roles that have a permission, in the table's order. */
export function rolesWith(permission: Permission): Role[] {
  return KEY_ROLES.filter((role) => ROLE_PERMISSIONS[role].has(permission));
}

/** A role for one facility, or for every facility (`facilityId` null). */
export interface RoleGrant {
  facilityId: number | null;
  role: Role;
}

/** Whether the grants allow a permission at a facility; `undefined`: at some facility (a path without one). */
export function grantsAllow(
  grants: readonly RoleGrant[],
  permission: Permission,
  facilityId: number | undefined,
): boolean {
  if (permission === 'account') return true;
  return grants.some(
    (grant) =>
      ROLE_PERMISSIONS[grant.role].has(permission) &&
      (facilityId === undefined || grant.facilityId === null || grant.facilityId === facilityId),
  );
}

/** The facilities grants reach: `all` when one grant is for every facility. */
export function facilitiesOf(grants: readonly RoleGrant[]): number[] | 'all' {
  if (grants.some((grant) => grant.facilityId === null)) return 'all';
  return [...new Set(grants.map((grant) => grant.facilityId as number))].sort((a, b) => a - b);
}
