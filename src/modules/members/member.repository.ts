import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { type PointReadOptions, pointRead } from '../../db/point-read.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { MembersTable } from '../../db/schema.js';
import type { Member } from './member.schemas.js';

type MemberRow = Selectable<MembersTable>;
/** A member as stored: its representation but `allowed_transitions` (from the policy), and the schedule's column. */
export type MemberRecord = Omit<Member, 'allowed_transitions'> & { next_change_on: string | null };
export type MemberValues = Omit<
  MemberRecord,
  'id' | 'facility_id' | 'created_at' | 'updated_at' | 'last_check_in_at'
>;

/**
 * The columns of a member, in the order of its representation: every column
 * but `email_folded`, which exists for the unique index. Reads select these,
 * so a row is a MemberRecord as it is, with no copy.
 */
export const MEMBER_COLUMNS = [
  'id',
  'facility_id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'date_of_birth',
  'sport_id',
  'role',
  'status',
  'status_reason',
  'plan_id',
  'joined_on',
  'ends_on',
  'notes',
  'waiver_signed_at',
  'external_id',
  'status_changed_at',
  'created_at',
  'updated_at',
  'deleted_at',
  'last_check_in_at',
  'next_change_on',
] as const satisfies readonly (keyof MemberRecord & keyof MemberRow)[];

/** The column the per-facility unique index on email reads. */
const foldEmail = (email: string | null) => (email === null ? null : email.toLowerCase());

function toColumns(values: Partial<MemberValues>): Updateable<MembersTable> {
  return values.email === undefined ? values : { ...values, email_folded: foldEmail(values.email) };
}

// `last_check_in_at` is written by a check-in only (src/modules/access-decisions/).
type MemberColumns = Omit<MemberRow, 'id' | 'last_check_in_at'>;

/** Every column of the table is in MEMBER_COLUMNS (or is `email_folded`): the compiler names one left out. */
type NotInserted = Exclude<keyof MemberColumns, (typeof MEMBER_COLUMNS)[number] | 'email_folded'>;
const _everyColumnInserted: [NotInserted] extends [never] ? true : NotInserted = true;

/** What a create writes: every column but the id, which the database gives, from the one list above. */
const INSERT_COLUMNS: readonly (keyof MemberColumns)[] = [
  ...MEMBER_COLUMNS.filter((column) => column !== 'id' && column !== 'last_check_in_at'),
  'email_folded',
];

/** Creates are the write that integrations burst: compiled once (prepareQuery). */
const insertMemberQuery = prepareQuery<MemberColumns, MemberRecord>((db, param) =>
  db
    .insertInto('members')
    .values(Object.fromEntries(INSERT_COLUMNS.map((column) => [column, param(column)])) as MemberColumns)
    .returning(MEMBER_COLUMNS),
);

export async function insertMember(
  db: Executor,
  facilityId: number,
  values: MemberValues,
  now: string,
): Promise<MemberRecord> {
  const [row] = await insertMemberQuery(db, {
    ...values,
    email_folded: foldEmail(values.email),
    facility_id: facilityId,
    created_at: now,
    updated_at: now,
  });
  return row;
}

// NO KEY UPDATE when locking, like the UPDATE that follows: two writes to one
// member must not both check the status it had before either of them.
const readMember = pointRead<MemberRecord>({
  table: 'members',
  columns: MEMBER_COLUMNS,
  key: 'id',
  lockMode: 'no key update',
});

export async function findMemberById(
  db: Executor,
  facilityId: number,
  memberId: number,
  options: PointReadOptions = {},
): Promise<MemberRecord | undefined> {
  return readMember(db, facilityId, memberId, options);
}

export async function updateMember(
  db: Executor,
  memberId: number,
  changes: Partial<MemberValues>,
  now: string,
): Promise<MemberRecord> {
  const row = await db
    .updateTable('members')
    .set({ ...toColumns(changes), updated_at: now })
    .where('id', '=', memberId)
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
  return row as MemberRecord;
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

/** Seats taken of each plan of the facility that has `max_members` (plans with none taken are left out). */
export async function countSeatsOfCappedPlans(
  db: Executor,
  facilityId: number,
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('members')
    .select(['plan_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('facility_id', '=', facilityId)
    .where('status', 'not in', ['cancelled', 'removed'])
    .where('plan_id', 'in', (eb) =>
      eb
        .selectFrom('plans')
        .select('id')
        .where('facility_id', '=', facilityId)
        .where('max_members', 'is not', null),
    )
    .groupBy('plan_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.plan_id), Number(row.count)]));
}

/**
 * The id, version and keys of the member, not removed, that has this external_id or this email
 * (ignoring case), as the unique indexes see them: an import's `match_by`.
 */
export async function findMemberIdByKey(
  db: Executor,
  facilityId: number,
  key: { external_id: string } | { email: string },
): Promise<{ id: number; updated_at: string; email: string | null; external_id: string | null } | undefined> {
  return db
    .selectFrom('members')
    .select(['id', 'updated_at', 'email', 'external_id'])
    .where('facility_id', '=', facilityId)
    .where('deleted_at', 'is', null)
    .$if('external_id' in key, (qb) =>
      qb.where('external_id', '=', (key as { external_id: string }).external_id),
    )
    .$if('email' in key, (qb) => qb.where('email_folded', '=', foldEmail((key as { email: string }).email)))
    .executeTakeFirst();
}
