import { type Selectable, sql, type Updateable } from 'kysely';
import { anyOf, batchReads, readsInBatches } from '../../db/batched-read.js';
import type { Db, Executor } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { type ParameterFunction, prepareQuery } from '../../db/prepared-query.js';
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

/**
 * The columns of a member, in the order of its representation: every column
 * but `email_folded`, which exists for the unique index. Reads select these,
 * so a row is a Member as it is, with no copy.
 */
const MEMBER_COLUMNS = [
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
  'plan_id',
  'joined_on',
  'notes',
  'status_changed_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof Member & keyof MemberRow)[];

/** The column the per-facility unique index on email reads. */
const foldEmail = (email: string | null) => (email === null ? null : email.toLowerCase());

function toColumns(values: Partial<MemberValues>): Updateable<MembersTable> {
  return values.email === undefined ? values : { ...values, email_folded: foldEmail(values.email) };
}

type MemberColumns = Omit<MemberRow, 'id'>;

/** Creates are the write that integrations burst: compiled once (prepareQuery). */
const insertMemberQuery = prepareQuery<MemberColumns, Member>((db, param) =>
  db
    .insertInto('members')
    .values({
      facility_id: param('facility_id'),
      first_name: param('first_name'),
      last_name: param('last_name'),
      email: param('email'),
      email_folded: param('email_folded'),
      phone: param('phone'),
      date_of_birth: param('date_of_birth'),
      sport_id: param('sport_id'),
      role: param('role'),
      status: param('status'),
      plan_id: param('plan_id'),
      joined_on: param('joined_on'),
      notes: param('notes'),
      status_changed_at: param('status_changed_at'),
      created_at: param('created_at'),
      updated_at: param('updated_at'),
      deleted_at: param('deleted_at'),
    })
    .returning(MEMBER_COLUMNS),
);

export async function insertMember(
  db: Executor,
  facilityId: number,
  values: MemberValues,
  now: string,
): Promise<Member> {
  const [row] = await insertMemberQuery(db, {
    ...values,
    email_folded: foldEmail(values.email),
    facility_id: facilityId,
    created_at: now,
    updated_at: now,
  });
  return row;
}

type MemberKey = { id: number; facilityId: number };

const memberById = (db: Db, param: ParameterFunction<MemberKey>) =>
  db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('id', '=', param('id'))
    .where('facility_id', '=', param('facilityId'));

const selectMemberById = prepareQuery<MemberKey, Member>(memberById);

// On PostgreSQL two writes to one member must not both check the status it
// had before either of them (two moves from active: to frozen and to
// suspended). NO KEY UPDATE, like the UPDATE that follows, so that it does
// not wait on the KEY SHARE locks that foreign key checks take.
const selectMemberByIdForUpdate = prepareQuery<MemberKey, Member>((db, param) =>
  memberById(db, param).forNoKeyUpdate(),
);

/** Reads of one member, gathered per turn on PostgreSQL (batchReads). */
const readMemberInBatch = batchReads<Member>(
  (db, param) =>
    db
      .selectFrom('members')
      .select(MEMBER_COLUMNS)
      .where('id', '=', anyOf(param('keys'))),
  (member) => member.id,
);

export async function findMemberById(
  db: Executor,
  facilityId: number,
  memberId: number,
  options: { lock?: boolean } = {},
): Promise<Member | undefined> {
  if (options.lock !== true && readsInBatches(db)) return readMemberInBatch(db, facilityId, memberId);
  const select =
    options.lock === true && dialectOf(db) === 'postgres' ? selectMemberByIdForUpdate : selectMemberById;
  const [member] = await select(db, { id: memberId, facilityId });
  return member;
}

/** LIKE pattern for a lower-cased substring, with the wildcard characters escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * GLOB pattern for a substring in either case. SQLite's lower() and LIKE fold
 * ASCII letters only, so `Élo` would not find `Élodie`; a class per letter
 * (`[éÉ]`) matches both cases of any letter. GLOB's own wildcards become
 * one-character classes so that they match literally.
 */
function containsGlob(text: string): string {
  const classes = Array.from(text, (char) => {
    const cases = new Set([char, char.toLowerCase(), char.toUpperCase()]);
    const variants = [...cases].filter((c) => Array.from(c).length === 1);
    return variants.length > 1 || '*?['.includes(char) ? `[${variants.join('')}]` : char;
  });
  return `*${classes.join('')}*`;
}

type SearchedColumn = 'first_name' | 'last_name' | 'email_folded';

/** `column` contains `text`, ignoring case, on either dialect. */
function containsIgnoringCase(db: Executor, column: SearchedColumn, text: string) {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ${containsGlob(text)}`;
}

const SEARCHED_COLUMNS: SearchedColumn[] = ['first_name', 'last_name', 'email_folded'];

export async function listMembers(db: Executor, facilityId: number, filter: MemberFilter): Promise<Member[]> {
  const { statuses, roles, q } = filter;
  const rows = await db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('facility_id', '=', facilityId)
    .where('id', '>', filter.afterId)
    .$if(filter.sportId !== undefined, (qb) => qb.where('sport_id', '=', filter.sportId as number))
    .$if(filter.planId !== undefined, (qb) => qb.where('plan_id', '=', filter.planId as number))
    .$if(statuses !== undefined, (qb) => qb.where('status', 'in', statuses as string[]))
    .$if(statuses === undefined, (qb) => qb.where('status', '<>', 'removed'))
    .$if(roles !== undefined, (qb) => qb.where('role', 'in', roles as string[]))
    .$if(q !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or(SEARCHED_COLUMNS.map((column) => containsIgnoringCase(db, column, q as string))),
      ),
    )
    .orderBy('id')
    .limit(filter.limit)
    .execute();
  return rows as Member[];
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
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
  return row as Member;
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
