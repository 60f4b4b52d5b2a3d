import type { Facility, Permission, Role, Session } from '@facility-admin/client';

/** Whether the caller's roles allow `permission` at a facility, or (no facility) at any one. */
export function allows(session: Session, permission: Permission, facilityId?: number): boolean {
  return session.roles.some(
    (grant) =>
      grant.permissions.includes(permission) &&
      (facilityId === undefined || grant.facility_id === null || grant.facility_id === facilityId),
  );
}

export const ROLE_WORDS: Record<Role, string> = {
  admin: 'Admin',
  owner: 'Owner',
  manager: 'Manager',
  front_desk: 'Front desk',
  viewer: 'Viewer',
  door: 'Door',
};

/** What each role may do, in a phrase (docs/security.md, "Roles"). */
export const ROLE_HINTS: Record<Role, string> = {
  admin: 'everything (API keys only)',
  owner: 'everything, including staff, API keys, webhooks and facilities',
  manager: 'plans, members, freezes, policy, import and export',
  front_desk: 'reads; creates and edits members, plans and cancels freezes',
  viewer: 'reads only',
  door: 'access decisions and check-outs only (door controllers; API keys only)',
};

/** A facility's name, or its number for one used before it was named. */
export function facilityName(facilities: readonly Facility[], id: number | null): string {
  if (id === null) return 'All facilities';
  return facilities.find((facility) => facility.id === id)?.name ?? `Facility ${id}`;
}

/** Who the caller is, in words: a person's name, or a key's. */
export function callerWords(session: Session): string {
  if (session.auth_mode === 'none') return 'Authentication off';
  return session.actor.type === 'api_key' ? `API key “${session.actor.name}”` : session.actor.name;
}
