import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { engineOf } from '../../db/engine/engine.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { CheckInsTable } from '../../db/schema.js';
import type { CheckIn, CheckInListQuery } from './check-in.schemas.js';

export type CheckInRow = Selectable<CheckInsTable>;

/** A stored check-in as the API shows it: its JSON columns parsed. */
export function toCheckIn(row: CheckInRow): CheckIn {
  return {
    ...row,
    decision: row.decision as CheckIn['decision'],
    reasons: JSON.parse(row.reasons),
    actor: JSON.parse(row.actor),
  };
}

type CheckInColumns = Omit<CheckInRow, 'id'>;

const CHECK_IN_COLUMNS: readonly (keyof CheckInColumns)[] = [
  'facility_id',
  'member_id',
  'credential_id',
  'credential_last4',
  'area',
  'guests',
  'decision',
  'reasons',
  'actor',
  'checked_in_at',
  'checked_out_at',
];

/** Every recorded access decision inserts one: compiled once (prepareQuery). */
const insertCheckInQuery = prepareQuery<CheckInColumns, CheckInRow>((db, param) =>
  db
    .insertInto('check_ins')
    .values(Object.fromEntries(CHECK_IN_COLUMNS.map((column) => [column, param(column)])) as CheckInColumns)
    .returningAll(),
);

export async function insertCheckIn(db: Executor, values: CheckInColumns): Promise<CheckIn> {
  const [row] = await insertCheckInQuery(db, values);
  return toCheckIn(row);
}

export async function findCheckIn(
  db: Executor,
  facilityId: number,
  checkInId: number,
  options: { lock?: boolean } = {},
): Promise<CheckIn | undefined> {
  const row = await db
    .selectFrom('check_ins')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '=', checkInId)
    .$if(options.lock === true && engineOf(db).locksRows, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && toCheckIn(row);
}

export async function setCheckedOut(db: Executor, checkInId: number, at: string): Promise<void> {
  await db.updateTable('check_ins').set({ checked_out_at: at }).where('id', '=', checkInId).execute();
}

/** One page of a facility's check-ins, by id, with the list's filters. */
export async function listCheckIns(
  db: Executor,
  facilityId: number,
  filter: Pick<CheckInListQuery, 'member_id' | 'decision' | 'since' | 'until'>,
  afterId: number,
  rows: number,
): Promise<CheckIn[]> {
  let query = db
    .selectFrom('check_ins')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '>', afterId);
  if (filter.member_id !== undefined) query = query.where('member_id', '=', filter.member_id);
  if (filter.decision !== undefined) query = query.where('decision', '=', filter.decision);
  if (filter.since !== undefined) query = query.where('checked_in_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('checked_in_at', '<', filter.until);
  const found = await query.orderBy('id').limit(rows).execute();
  return found.map(toCheckIn);
}

/** People in the facility: allowed check-ins not checked out, at or after `since` (the cutoff). */
export async function countPresent(
  db: Executor,
  facilityId: number,
  since: string,
): Promise<{ present: number; guests: number }> {
  const row = await db
    .selectFrom('check_ins')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('present'),
      eb.fn.sum<number | string>('guests').as('guests'),
    ])
    .where('facility_id', '=', facilityId)
    .where('decision', '=', 'allow')
    .where('checked_out_at', 'is', null)
    .where('checked_in_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { present: Number(row.present), guests: Number(row.guests ?? 0) };
}

/** Every access decision but an unknown card's counts a member's visits: compiled once (prepareQuery). */
const countVisitsQuery = prepareQuery<
  { memberId: number; from: string; to: string },
  { visits: number | string; guests: number | string | null }
>((db, param) =>
  db
    .selectFrom('check_ins')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('visits'),
      eb.fn.sum<number | string>('guests').as('guests'),
    ])
    .where('member_id', '=', param('memberId'))
    .where('decision', '=', 'allow')
    .where('checked_in_at', '>=', param('from'))
    .where('checked_in_at', '<', param('to')),
);

/** A member's visits (allowed check-ins) from `from` up to `to`, and the guests they brought. */
export async function countVisits(
  db: Executor,
  memberId: number,
  from: string,
  to: string,
): Promise<{ visits: number; guests: number }> {
  const [row] = await countVisitsQuery(db, { memberId, from, to });
  return { visits: Number(row.visits), guests: Number(row.guests ?? 0) };
}

/** The member's latest visit after `since` that was not checked out (anti-passback holds until since + minutes). */
export async function findOpenVisitAfter(
  db: Executor,
  memberId: number,
  since: string,
): Promise<CheckInRow | undefined> {
  return db
    .selectFrom('check_ins')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('decision', '=', 'allow')
    .where('checked_out_at', 'is', null)
    .where('checked_in_at', '>', since)
    .orderBy('checked_in_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
