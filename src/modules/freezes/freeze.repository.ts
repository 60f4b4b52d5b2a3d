import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { MemberFreezesTable } from '../../db/schema.js';

export type FreezeRow = Selectable<MemberFreezesTable>;

export const FREEZE_COLUMNS = [
  'id',
  'facility_id',
  'member_id',
  'starts_on',
  'ends_on',
  'reason',
  'state',
  'created_at',
  'cancelled_at',
] as const satisfies readonly (keyof FreezeRow)[];

/** A member's freezes, oldest first. Read after the member row is locked, so they do not change meanwhile. */
export async function listFreezesOfMember(db: Executor, memberId: number): Promise<FreezeRow[]> {
  return db
    .selectFrom('member_freezes')
    .select(FREEZE_COLUMNS)
    .where('member_id', '=', memberId)
    .orderBy('starts_on')
    .orderBy('id')
    .execute();
}

/** One page of a member's freezes, by id. */
export async function listFreezesPage(
  db: Executor,
  memberId: number,
  afterId: number,
  rows: number,
): Promise<FreezeRow[]> {
  return db
    .selectFrom('member_freezes')
    .select(FREEZE_COLUMNS)
    .where('member_id', '=', memberId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(rows)
    .execute();
}

export async function insertFreeze(
  db: Executor,
  values: Omit<FreezeRow, 'id' | 'cancelled_at'>,
): Promise<FreezeRow> {
  return db
    .insertInto('member_freezes')
    .values({ ...values, cancelled_at: null })
    .returning(FREEZE_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateFreeze(
  db: Executor,
  freeze: Pick<FreezeRow, 'id' | 'state' | 'ends_on' | 'cancelled_at'>,
): Promise<void> {
  await db
    .updateTable('member_freezes')
    .set({ state: freeze.state, ends_on: freeze.ends_on, cancelled_at: freeze.cancelled_at })
    .where('id', '=', freeze.id)
    .execute();
}
