import { AppError, invalidField } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { type RoleGrant, STAFF_ROLES } from '../../core/roles.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { PageRead } from '../../db/page-rows.js';
import { type Write, write } from '../../journal/write-path.js';
import { journalStaffChange } from './staff.audit.js';
import {
  findStaffByEmail,
  findStaffById,
  insertStaff,
  listStaff,
  replaceRoles,
  type StaffFilter,
  updateStaff,
} from './staff.repository.js';
import type { StaffInvite, StaffUpdate, StaffUser } from './staff.schemas.js';
import { insertLink, type LinkPurpose, newLinkSecret } from './staff-link.repository.js';
import { assertMayGrant, assertMayManage } from './staff-reach.js';
import { deleteSessionsOf } from './staff-session.repository.js';
import './staff.problems.js';

/** Where links point and how they travel: the service's address, the mailer, the links' lifetimes. */
export interface LinkDelivery {
  /** The console's URL for a link's secret (PUBLIC_URL, else the request's own address). */
  linkUrl(purpose: LinkPurpose, secret: string): string;
  /** Sends a link to a person; undefined when no SMTP server is set. */
  mail?(to: string, subject: string, text: string): Promise<void>;
  validMs: Record<'invitation' | 'password_reset', number>;
}

export function grantsOf(user: StaffUser): RoleGrant[] {
  return user.roles.map((role) => ({ facilityId: role.facility_id, role: role.role as RoleGrant['role'] }));
}

export async function getStaff(db: Executor, principal: Principal, id: number): Promise<StaffUser> {
  const found = await findStaffById(db, id);
  if (!found || !reaches(principal, found.user)) throw staffNotFound(id);
  return found.user;
}

/** A caller sees the people with a role in a facility it owns, and itself. */
function reaches(principal: Principal, user: StaffUser): boolean {
  const reachable = principal.facilityIds;
  if (principal.staffUserId === user.id || reachable === 'all') return true;
  return user.roles.some((role) => role.facility_id !== null && reachable.includes(role.facility_id));
}

export async function listStaffFor(
  db: Executor,
  principal: Principal,
  filter: Omit<StaffFilter, 'reachable'>,
  page: PageRead,
): Promise<StaffUser[]> {
  return listStaff(db, { ...filter, reachable: principal.facilityIds }, page);
}

export async function inviteStaff(
  db: Db,
  context: WriteContext<StaffUser>,
  links: LinkDelivery,
  body: StaffInvite,
): Promise<StaffUser> {
  const grants = body.roles.map((role) => ({
    facilityId: role.facility_id,
    role: role.role as RoleGrant['role'],
  }));
  assertValidGrants(grants);
  assertMayGrant(context.principal, grants);
  const secret = newLinkSecret();
  const invited = await write(db, context, async (change) => {
    const now = change.now.toISOString();
    const id = await insertStaff(
      change.trx,
      { email: body.email, name: body.name, state: 'invited' },
      now,
    ).catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailConflict(body.email) : error;
    });
    await replaceRoles(change.trx, id, grants);
    const created = await mustFind(change.trx, id);
    journalStaffChange(change, { action: 'create', before: null, after: created });
    const expiresAt = new Date(change.now.getTime() + links.validMs.invitation).toISOString();
    await insertLink(
      change.trx,
      secret,
      { purpose: 'invitation', staffUserId: id, data: {}, expiresAt },
      now,
    );
    await context.onCreated?.(change.trx, created);
    return { user: created, expiresAt };
  });
  const invitation = await deliverLink(links, 'invitation', secret, invited.user, invited.expiresAt);
  return { ...invited.user, invitation };
}

/** A new invitation (for someone still `invited`) or a password reset link, e-mailed or answered. */
export async function sendLink(
  db: Db,
  context: WriteContext,
  links: LinkDelivery,
  id: number,
  purpose: 'invitation' | 'password_reset',
): Promise<StaffUser> {
  const secret = newLinkSecret();
  const made = await write(db, context, async (change) => {
    const found = await findStaffById(change.trx, id, { lock: true });
    if (!found || !reaches(context.principal, found.user)) throw staffNotFound(id);
    assertMayManage(context.principal, { id, roles: grantsOf(found.user) });
    if (purpose === 'invitation' && found.user.state !== 'invited') {
      throw new AppError(
        'staff_state_conflict',
        `Staff user ${id} is ${found.user.state}: only an invited person gets an invitation`,
      );
    }
    if (purpose === 'password_reset' && found.user.state === 'disabled') {
      throw new AppError('staff_state_conflict', `Staff user ${id} is disabled: enable them first`);
    }
    const expiresAt = new Date(change.now.getTime() + links.validMs[purpose]).toISOString();
    await insertLink(
      change.trx,
      secret,
      { purpose, staffUserId: id, data: {}, expiresAt },
      change.now.toISOString(),
    );
    return { user: found.user, expiresAt };
  });
  return { ...made.user, invitation: await deliverLink(links, purpose, secret, made.user, made.expiresAt) };
}

export async function changeStaff(
  db: Db,
  context: WriteContext,
  id: number,
  patch: StaffUpdate,
): Promise<StaffUser> {
  return write(db, context, async (change) => {
    const found = await findStaffById(change.trx, id, { lock: true });
    if (!found || !reaches(context.principal, found.user)) throw staffNotFound(id);
    const self = context.principal.staffUserId === id;
    if (!self || patch.roles !== undefined || patch.state !== undefined) {
      assertMayManage(context.principal, { id, roles: grantsOf(found.user) });
    }
    return applyChange(change, found.user, patch);
  });
}

async function applyChange(change: Write, current: StaffUser, patch: StaffUpdate): Promise<StaffUser> {
  const { trx, now, context } = change;
  const fields: { name?: string; state?: string } = {};
  if (patch.name !== undefined && patch.name !== current.name) fields.name = patch.name;
  if (
    patch.state !== undefined &&
    patch.state !== current.state &&
    !(patch.state === 'active' && current.state === 'invited')
  ) {
    fields.state = patch.state;
  }
  const grants = patch.roles?.map((role) => ({
    facilityId: role.facility_id,
    role: role.role as RoleGrant['role'],
  }));
  const rolesChanged = grants !== undefined && JSON.stringify(grants) !== JSON.stringify(grantsOf(current));
  if (grants) {
    assertValidGrants(grants);
    assertMayGrant(context.principal, grants);
  }
  if (Object.keys(fields).length === 0 && !rolesChanged) return current;
  await updateStaff(trx, current.id, fields, now.toISOString());
  if (rolesChanged && grants) await replaceRoles(trx, current.id, grants);
  if (fields.state === 'disabled') await deleteSessionsOf(trx, current.id);
  const updated = await mustFind(trx, current.id);
  journalStaffChange(change, { action: 'update', before: current, after: updated });
  return updated;
}

/** Sends a link by e-mail, or answers it to pass on (no SMTP, or the e-mail failed). */
export async function deliverLink(
  links: LinkDelivery,
  purpose: 'invitation' | 'password_reset',
  secret: string,
  user: StaffUser,
  expiresAt: string,
): Promise<{ url: string | null; expires_at: string; emailed: boolean }> {
  const url = links.linkUrl(purpose, secret);
  if (links.mail) {
    const subject =
      purpose === 'invitation' ? 'You are invited to facility-admin' : 'Reset your facility-admin password';
    const text =
      `Hello ${user.name},\n\n` +
      (purpose === 'invitation'
        ? 'You have been invited to the facility-admin console. Open this link to set your password:\n\n'
        : 'Open this link to set a new password for the facility-admin console:\n\n') +
      `${url}\n\nThe link works once, until ${expiresAt} (UTC). If you did not expect it, ignore this e-mail.\n`;
    try {
      await links.mail(user.email, subject, text);
      return { url: null, expires_at: expiresAt, emailed: true };
    } catch {
      // The link is made: the owner passes it on instead (the mailer's failure is logged by it).
    }
  }
  return { url, expires_at: expiresAt, emailed: false };
}

async function mustFind(db: Executor, id: number): Promise<StaffUser> {
  const found = await findStaffById(db, id);
  if (!found) throw new Error(`staff user ${id} vanished in its own transaction`);
  return found.user;
}

/** A person takes a staff role; `admin` and `door` are for API keys (the table's check constraint agrees). */
function assertStaffRoles(grants: readonly RoleGrant[]): void {
  grants.forEach((grant, index) => {
    if (!(STAFF_ROLES as readonly string[]).includes(grant.role)) {
      throw invalidField(
        'body',
        `/roles/${index}/role`,
        `must be one of ${STAFF_ROLES.join(', ')}: ${grant.role} is for API keys only`,
      );
    }
  });
}

/** A person's roles: staff roles only, one per facility. */
function assertValidGrants(grants: readonly RoleGrant[]): void {
  assertStaffRoles(grants);
  assertUniqueFacilities(grants);
}

function assertUniqueFacilities(grants: readonly RoleGrant[]): void {
  const seen = new Set(grants.map((grant) => grant.facilityId));
  if (seen.size !== grants.length) {
    throw invalidField('body', '/roles', 'names a facility twice: one role per facility');
  }
}

export function staffNotFound(id: number): AppError {
  return new AppError('staff_not_found', `There is no staff user ${id} that you may see`);
}

function emailConflict(email: string): AppError {
  return new AppError('staff_email_conflict', `A staff user with the e-mail ${email} already exists`);
}

export { findStaffByEmail };
