import type { Selectable } from 'kysely';
import type { RoleGrant } from '../../core/roles.js';
import type { Executor } from '../../db/database.js';
import { engineOf } from '../../db/engine/engine.js';
import type { PageRead } from '../../db/page-rows.js';
import type { StaffUsersTable } from '../../db/schema.js';
import type { StaffUser } from './staff.schemas.js';

type StaffRow = Selectable<StaffUsersTable>;
/** A staff user as stored: its representation and its password hash, which never leaves this module. */
export interface StaffRecord {
  user: StaffUser;
  passwordHash: string | null;
  passwordChangedAt: string | null;
}

export function foldEmail(email: string): string {
  return email.toLowerCase();
}

function toStaffUser(row: StaffRow, grants: readonly RoleGrant[]): StaffUser {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    state: row.state as StaffUser['state'],
    roles: grants.map((grant) => ({ facility_id: grant.facilityId, role: grant.role })),
    has_password: row.password_hash !== null,
    last_sign_in_at: row.last_sign_in_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function findRolesOf(
  db: Executor,
  staffUserIds: readonly number[],
): Promise<Map<number, RoleGrant[]>> {
  const byUser = new Map<number, RoleGrant[]>(staffUserIds.map((id) => [id, []]));
  if (staffUserIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('staff_roles')
    .selectAll()
    .where('staff_user_id', 'in', staffUserIds)
    .orderBy('facility_id')
    .execute();
  for (const row of rows) {
    byUser.get(Number(row.staff_user_id))?.push({
      facilityId: row.facility_id === null ? null : Number(row.facility_id),
      role: row.role as RoleGrant['role'],
    });
  }
  // Every facility first, then by facility id.
  for (const grants of byUser.values()) grants.sort((a, b) => (a.facilityId ?? 0) - (b.facilityId ?? 0));
  return byUser;
}

async function withRoles(db: Executor, row: StaffRow | undefined): Promise<StaffRecord | undefined> {
  if (!row) return undefined;
  const grants = (await findRolesOf(db, [Number(row.id)])).get(Number(row.id)) ?? [];
  return {
    user: toStaffUser(row, grants),
    passwordHash: row.password_hash,
    passwordChangedAt: row.password_changed_at,
  };
}

export async function findStaffById(
  db: Executor,
  id: number,
  options: { lock?: boolean } = {},
): Promise<StaffRecord | undefined> {
  const row = await db
    .selectFrom('staff_users')
    .selectAll()
    .where('id', '=', id)
    .$if(options.lock === true && engineOf(db).locksRows, (query) => query.forUpdate())
    .executeTakeFirst();
  return withRoles(db, row);
}

export async function findStaffByEmail(db: Executor, email: string): Promise<StaffRecord | undefined> {
  const row = await db
    .selectFrom('staff_users')
    .selectAll()
    .where('email_folded', '=', foldEmail(email))
    .executeTakeFirst();
  return withRoles(db, row);
}

export async function countStaff(db: Executor): Promise<number> {
  const { count } = await db
    .selectFrom('staff_users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertStaff(
  db: Executor,
  values: { email: string; name: string; state: StaffUser['state']; passwordHash?: string },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('staff_users')
    .values({
      email: values.email,
      email_folded: foldEmail(values.email),
      name: values.name,
      state: values.state,
      password_hash: values.passwordHash ?? null,
      password_changed_at: values.passwordHash === undefined ? null : now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function replaceRoles(
  db: Executor,
  staffUserId: number,
  grants: readonly RoleGrant[],
): Promise<void> {
  await db.deleteFrom('staff_roles').where('staff_user_id', '=', staffUserId).execute();
  if (grants.length === 0) return;
  await db
    .insertInto('staff_roles')
    .values(
      grants.map((grant) => ({
        staff_user_id: staffUserId,
        facility_id: grant.facilityId,
        role: grant.role,
      })),
    )
    .execute();
}

export async function updateStaff(
  db: Executor,
  id: number,
  changes: Partial<
    Pick<StaffUsersTable, 'name' | 'state' | 'password_hash' | 'password_changed_at' | 'last_sign_in_at'>
  >,
  now: string,
): Promise<void> {
  await db
    .updateTable('staff_users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Which staff a list shows: by state, and those with a role in a facility the caller reaches. */
export interface StaffFilter {
  state?: StaffUser['state'];
  facilityId?: number;
  reachable: number[] | 'all';
}

export async function listStaff(db: Executor, filter: StaffFilter, page: PageRead): Promise<StaffUser[]> {
  const facilities = filter.facilityId === undefined ? filter.reachable : [filter.facilityId];
  const rows = await db
    .selectFrom('staff_users')
    .selectAll()
    .where('id', '>', page.afterId)
    .$if(filter.state !== undefined, (qb) => qb.where('state', '=', filter.state as string))
    .$if(facilities !== 'all', (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('staff_roles')
            .select('staff_roles.staff_user_id')
            .whereRef('staff_roles.staff_user_id', '=', 'staff_users.id')
            .where('staff_roles.facility_id', 'in', facilities as number[]),
        ),
      ),
    )
    .orderBy('id')
    .limit(page.rows)
    .execute();
  const roles = await findRolesOf(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => toStaffUser(row, roles.get(Number(row.id)) ?? []));
}
