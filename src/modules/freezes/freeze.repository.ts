import type { Executor } from '../../db/database.js';
import { FREEZE_COLUMNS, type FreezeRow } from '../schedule/schedule.repository.js';

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
