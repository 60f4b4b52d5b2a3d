import { facilitiesOf, type Role, type RoleGrant } from './roles.js';

/** Who did a write, as the audit trail and the change feed name them. */
export interface Actor {
  type: 'api_key' | 'staff_user' | 'service';
  /** The key's id (0: ADMIN_API_KEY) or the staff user's; null for the service itself. */
  id: number | null;
  /** The key's name, the person's name, or `system` / `cli` / `AUTH_MODE=none` for the service. */
  name: string;
}

/** Who is calling: an API key or a signed-in staff user, with its roles. */
export interface Principal {
  actor: Actor;
  /** The API key that authenticated (0: ADMIN_API_KEY); null for a staff user or the service. */
  keyId: number | null;
  /** The staff user signed in to the console, and their session; null for an API key. */
  staffUserId: number | null;
  sessionId: number | null;
  grants: readonly RoleGrant[];
  /** The facilities the grants reach. */
  facilityIds: number[] | 'all';
}

/** An API key's principal: one role for each facility of its scope. */
export function keyPrincipal(key: {
  id: number;
  name: string;
  role: Role;
  facilityIds: number[] | 'all';
}): Principal {
  const grants =
    key.facilityIds === 'all'
      ? [{ facilityId: null, role: key.role }]
      : key.facilityIds.map((facilityId) => ({ facilityId, role: key.role }));
  return {
    actor: { type: 'api_key', id: key.id, name: key.name },
    keyId: key.id,
    staffUserId: null,
    sessionId: null,
    grants,
    facilityIds: facilitiesOf(grants),
  };
}

/** A signed-in staff user's principal. */
export function staffPrincipal(
  user: { id: number; name: string },
  grants: readonly RoleGrant[],
  sessionId: number,
): Principal {
  return {
    actor: { type: 'staff_user', id: user.id, name: user.name },
    keyId: null,
    staffUserId: user.id,
    sessionId,
    grants,
    facilityIds: facilitiesOf(grants),
  };
}

/** The service acting by itself (the schedule, the first start, the command line): may do anything. */
export function servicePrincipal(name: string): Principal {
  return {
    actor: { type: 'service', id: null, name },
    keyId: null,
    staffUserId: null,
    sessionId: null,
    grants: [{ facilityId: null, role: 'admin' }],
    facilityIds: 'all',
  };
}

/** What the caller's per-caller limits and idempotency keys are counted by; undefined for the service. */
export function callerKeyOf(principal: Principal): string | undefined {
  if (principal.keyId !== null) return `key:${principal.keyId}`;
  if (principal.staffUserId !== null) return `staff:${principal.staffUserId}`;
  return undefined;
}

/**
 * The principal of work done later on a caller's behalf (an import job):
 * the caller as the journal names them. It was authorized when the work was
 * accepted, so it may do what that work does.
 */
export function principalOfActor(actor: Actor): Principal {
  return {
    actor,
    keyId: actor.type === 'api_key' ? actor.id : null,
    staffUserId: actor.type === 'staff_user' ? actor.id : null,
    sessionId: null,
    grants: [{ facilityId: null, role: 'admin' }],
    facilityIds: 'all',
  };
}

/** The actor stored with a job or journal row: an API key's id, a staff user's id, and the name. */
export function actorOfRow(row: {
  api_key_id: number | null;
  staff_user_id: number | null;
  api_key_name: string;
}): Actor {
  if (row.staff_user_id !== null)
    return { type: 'staff_user', id: row.staff_user_id, name: row.api_key_name };
  if (row.api_key_id !== null) return { type: 'api_key', id: row.api_key_id, name: row.api_key_name };
  return { type: 'service', id: null, name: row.api_key_name };
}
