import { changedFields } from '../../../core/changes.js';
import { AppError } from '../../../core/errors.js';
import { writeTimeAfter } from '../../../core/etag.js';
import type { WriteContext } from '../../../core/write-context.js';
import type { Db, Executor } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { inSavepoint, inWriteTransaction, journalChange } from '../../../journal/journal.js';
import { changeFreeze, type FreezeRow, listFreezesOfMember } from '../../freezes/freeze.service.js';
import {
  deleteMemberById,
  findMemberById,
  type MemberRecord,
  type MemberValues,
  updateMember,
} from '../member.repository.js';
import { type Lease, updateLeasedImport } from './member-import.repository.js';
import { type ChunkSettings, LeaseLost, Stopping } from './member-import-chunks.js';
import { deleteWrites, lastWrites } from './member-import-data.repository.js';

/** Writes read at once to be undone; a chunk undoes as many as its time allows. */
const WRITES_READ = 200;

type Write = Awaited<ReturnType<typeof lastWrites>>[number];

/** Restores a member the row changed: its fields, and its freezes (a freeze the row opened is cancelled). */
async function restore(trx: Executor, context: WriteContext, current: MemberRecord, before: string) {
  const saved = JSON.parse(before) as { member: MemberRecord; freezes: FreezeRow[] };
  const now = context.now;
  const { id: _id, facility_id: _f, created_at: _c, updated_at: _u, ...fields } = saved.member;
  const changes = changedFields<MemberValues>(current, fields);
  if (changes) {
    const restored = await updateMember(
      trx,
      current.id,
      changes,
      writeTimeAfter(current.updated_at, now.getTime()),
    );
    journalChange(trx, context, {
      facilityId: current.facility_id,
      resourceType: 'member',
      resourceId: current.id,
      action: 'update',
      before: current,
      after: restored,
    });
  }
  const savedFreezes = new Map(saved.freezes.map((freeze) => [freeze.id, freeze]));
  for (const freeze of await listFreezesOfMember(trx, current.id)) {
    const was = savedFreezes.get(freeze.id);
    const back: FreezeRow | undefined =
      was ??
      (freeze.state === 'cancelled'
        ? undefined
        : { ...freeze, state: 'cancelled', cancelled_at: now.toISOString() });
    if (back === undefined || (back.state === freeze.state && back.ends_on === freeze.ends_on)) continue;
    await changeFreeze(trx, context, freeze, back);
  }
}

/** Undoes one row's write: a created member is deleted, a changed one restored. */
async function undoWrite(trx: Executor, context: WriteContext, facilityId: number, write: Write) {
  const current = await findMemberById(trx, facilityId, write.member_id, { lock: true });
  if (!current) return;
  if (write.before !== null) return restore(trx, context, current, write.before);
  await deleteMemberById(trx, current.id);
  journalChange(trx, context, {
    facilityId,
    resourceType: 'member',
    resourceId: current.id,
    action: 'hard_delete',
    before: current,
    after: null,
  });
}

/**
 * Takes back every write of an `on_error=abort` import, last row first, in
 * chunks of their own transactions, through the same write path (the
 * journal shows each). A member someone changed since so that it cannot be
 * restored (its email taken meanwhile) is left as it is and named in the
 * answer. Resumable: each chunk forgets the writes it undid.
 */
export async function undoWrites(
  db: Db,
  job: { importId: number; facilityId: number; context: WriteContext },
  settings: ChunkSettings,
  lease: () => Lease,
): Promise<string[]> {
  const notRestored: string[] = [];
  let undone = 0;
  for (;;) {
    await settings.governor.turn();
    if (settings.stopping()) throw new Stopping();
    const started = performance.now();
    const writes = await lastWrites(db, job.importId, WRITES_READ);
    if (writes.length === 0) return notRestored;
    await inWriteTransaction(db, async (trx) => {
      const context = { ...job.context, now: settings.clock() };
      let lowest = writes[0].row;
      for (const write of writes) {
        if (write !== writes[0] && performance.now() - started >= settings.chunkMs) break;
        await inSavepoint(trx, () => undoWrite(trx, context, job.facilityId, write)).catch((error: Error) => {
          if (!(error instanceof AppError || isUniqueViolation(error))) throw error;
          notRestored.push(`member ${write.member_id} (${error.message})`);
        });
        lowest = write.row;
        undone += 1;
      }
      await deleteWrites(trx, job.importId, lowest);
      if (!(await updateLeasedImport(trx, lease(), { rows_done: undone }))) throw new LeaseLost(job.importId);
    });
    settings.governor.spent(performance.now() - started);
  }
}
