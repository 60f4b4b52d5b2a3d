import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { MembersTable } from '../../db/schema.js';
import type { Member } from './member.schemas.js';

type MemberRow = Selectable<MembersTable>;
export type MemberValues = Omit<Member, 'id' | 'facility_id' | 'created_at' | 'updated_at'>;

export interface MemberFilter {
  sportId?: number;
  statuses?: string[];
  roles?: string[];
  planId?: number;
  q?: string;
  afterId: number;
  limit: number;
}

export function toMember(row: MemberRow): Member {
  const { email_folded: _, ...member } = row;
  return member as Member;
}

function toColumns(values: Partial<MemberValues>): Updateable<MembersTable> {
  return values.email === undefined
    ? values
    : { ...values, email_folded: values.email === null ? null : values.email.toLowerCase() };
}

export async function insertMember(
  db: Executor,
  facilityId: number,
  values: MemberValues,
  now: string,
): Promise<Member> {
  const row = await db
    .insertInto('members')
    .values({
      ...(toColumns(values) as Insertable<MembersTable>),
      facility_id: facilityId,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMember(row);
}

export async function findMemberById(
  db: Executor,
  facilityId: number,
  memberId: number,
): Promise<Member | undefined> {
  const row = await db
    .selectFrom('members')
    .selectAll()
    .where('id', '=', memberId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row && toMember(row);
}

/** LIKE pattern for a substring, with the wildcard characters escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listMembers(db: Executor, facilityId: number, filter: MemberFilter): Promise<Member[]> {
  const statuses = filter.statuses;
  const roles = filter.roles;
  const pattern = filter.q === undefined ? undefined : containsPattern(filter.q);
  const rows = await db
    .selectFrom('members')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '>', filter.afterId)
    .$if(filter.sportId !== undefined, (qb) => qb.where('sport_id', '=', filter.sportId as number))
    .$if(filter.planId !== undefined, (qb) => qb.where('plan_id', '=', filter.planId as number))
    .$if(statuses !== undefined, (qb) => qb.where('status', 'in', statuses as string[]))
    .$if(statuses === undefined, (qb) => qb.where('status', '<>', 'removed'))
    .$if(roles !== undefined, (qb) => qb.where('role', 'in', roles as string[]))
    .$if(pattern !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          sql<boolean>`lower(${sql.ref('first_name')}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${sql.ref('last_name')}) like ${pattern} escape '\\'`,
          sql<boolean>`${sql.ref('email_folded')} like ${pattern} escape '\\'`,
        ]),
      ),
    )
    .orderBy('id')
    .limit(filter.limit)
    .execute();
  return rows.map(toMember);
}

export async function updateMember(
  db: Executor,
  memberId: number,
  changes: Partial<MemberValues>,
  now: string,
): Promise<Member> {
  const row = await db
    .updateTable('members')
    .set({ ...toColumns(changes), updated_at: now })
    .where('id', '=', memberId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMember(row);
}

export async function deleteMemberById(db: Executor, memberId: number): Promise<void> {
  await db.deleteFrom('members').where('id', '=', memberId).execute();
}

/** Members holding a seat of the plan: every status but cancelled and removed. */
export async function countSeatsTaken(db: Executor, planId: number): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('plan_id', '=', planId)
    .where('status', 'not in', ['cancelled', 'removed'])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
