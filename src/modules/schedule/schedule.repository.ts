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

/** The schedule's columns of a member; `updated_at` only when its representation changes. */
export async function updateMemberSchedule(
  db: Executor,
  memberId: number,
  changes: {
    status?: string;
    status_reason?: string | null;
    status_changed_at?: string;
    next_change_on: string | null;
    updated_at?: string;
  },
): Promise<void> {
  await db.updateTable('members').set(changes).where('id', '=', memberId).execute();
}

/**
 * Members with something due by `latestDate` (a date no facility's today is
 * past yet), after `afterId`, in id order: the sweeper's candidates, read
 * through the partial index on `next_change_on`.
 */
export async function findMembersMaybeDue(
  db: Executor,
  latestDate: string,
  afterId: number,
  limit: number,
): Promise<{ id: number; facility_id: number; next_change_on: string }[]> {
  const rows = await db
    .selectFrom('members')
    .select(['id', 'facility_id', 'next_change_on'])
    .where('next_change_on', 'is not', null)
    .where('next_change_on', '<=', latestDate)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows as { id: number; facility_id: number; next_change_on: string }[];
}
