import { defineResourceEvents } from '../../journal/event-types.js';
import type { Write } from '../../journal/write-path.js';
import type { StaffUser } from './staff.schemas.js';

/** A staff user's changes are audited only: the feed and webhooks carry a facility's data, not its people. */
defineResourceEvents({ resourceType: 'staff_user', examples: {}, typeOf: () => undefined });

/** The facility id of entries about the whole service (a role for every facility), as for API keys. */
const WHOLE_SERVICE_FACILITY_ID = 0;

/** What the trail keeps of a person: never a password hash, a session or a link. */
function auditedFields(user: StaffUser) {
  return { email: user.email, name: user.name, state: user.state, roles: user.roles };
}

/** The trails a person's entry goes to: each facility of their roles, or the whole service's. */
function facilitiesOfEntries(...users: (StaffUser | null)[]): number[] {
  const roles = users.flatMap((user) => user?.roles ?? []);
  const facilities = roles.some((role) => role.facility_id === null)
    ? [WHOLE_SERVICE_FACILITY_ID]
    : [...new Set(roles.map((role) => role.facility_id as number))];
  return facilities.length > 0 ? facilities : [WHOLE_SERVICE_FACILITY_ID];
}

/**
 * Journals a change of a person: one entry in each facility of their roles
 * before or after (each gains or loses someone), or one for the whole
 * service when a role covers every facility.
 */
export function journalStaffChange(
  write: Write,
  change: { action: 'create' | 'update'; before: StaffUser | null; after: StaffUser },
): void {
  for (const facilityId of facilitiesOfEntries(change.before, change.after)) {
    write.record({
      facilityId,
      resourceType: 'staff_user',
      resourceId: change.after.id,
      action: change.action,
      before: change.before && auditedFields(change.before),
      after: auditedFields(change.after),
    });
  }
}

/**
 * Journals a person's change of their own password: when, never the
 * password nor its hash. One entry where their other changes go.
 */
export function journalPasswordChange(
  write: Write,
  user: StaffUser,
  changedAt: { before: string | null; after: string },
): void {
  for (const facilityId of facilitiesOfEntries(user)) {
    write.record({
      facilityId,
      resourceType: 'staff_user',
      resourceId: user.id,
      action: 'update',
      before: { password_changed_at: changedAt.before },
      after: { password_changed_at: changedAt.after },
    });
  }
}
