import type { Db, Executor } from '../../../db/database.js';
import { planQueriesPerCall } from '../../../db/transaction-planning.js';
import { inWriteTransaction } from '../../../journal/journal.js';
import { listFreezesOfMember } from '../../freezes/freeze.service.js';
import { readPolicySettings } from '../../policy/policy.service.js';
import { findMemberById } from '../member.repository.js';
import { type Lease, updateLeasedImport } from './member-import.repository.js';
import {
  type ChunkSettings,
  forEachChunk,
  inRowAttempts,
  LeaseLost,
  type RowQueue,
} from './member-import-chunks.js';
import { insertWrites } from './member-import-data.repository.js';
import type { ImportTotals } from './member-import-report.js';
import {
  emptyTally,
  importRow,
  type RowHooks,
  type RowJob,
  type Tally,
} from './member-import-row.service.js';

/** A row of an `on_error=abort` import failed while it was written: its chunk was rolled back. */
export class WriteFailed extends Error {
  constructor(readonly tally: Tally) {
    super('a row failed while the import was written');
  }
}

export interface WritePass {
  importId: number;
  /** `on_error=abort`: the first failing row stops the pass, and each write is kept for undoing. */
  abort: boolean;
  /** The job's lease, renewed: each chunk commits only while the job is still this process's. */
  lease: () => Lease;
}

/** What undoing a PATCH needs: the member and its freezes before it. */
async function beforePatch(trx: Executor, facilityId: number, memberId: number): Promise<string> {
  const member = await findMemberById(trx, facilityId, memberId);
  return JSON.stringify({ member, freezes: await listFreezesOfMember(trx, memberId) });
}

/**
 * Writes the rows in chunks, each its own transaction: the rows of the
 * chunk, and the job's progress (rows done, counts, errors listed), commit
 * together, so a resumed job goes on exactly after the last committed chunk.
 * `onChunk` follows each commit.
 */
export async function writeRows(
  db: Db,
  job: RowJob,
  rows: RowQueue,
  totals: ImportTotals,
  settings: ChunkSettings,
  pass: WritePass,
  onChunk: () => Promise<void>,
): Promise<void> {
  const isolation = { next: false };
  await forEachChunk(rows, settings, async (next) => {
    await inRowAttempts(next, job.keys, isolation, async (take, isolated) => {
      const tally = emptyTally();
      const writes: { import_id: number; row: number; member_id: number; before: string | null }[] = [];
      const hooks: RowHooks = pass.abort
        ? {
            beforeUpdate: (trx, memberId) => beforePatch(trx, job.facilityId, memberId),
            written: ({ row, memberId, before }) =>
              writes.push({ import_id: pass.importId, row, member_id: memberId, before }),
          }
        : {};
      await inWriteTransaction(db, async (trx) => {
        await planQueriesPerCall(trx);
        // Once a chunk, not once a row: every row of it is checked against the policy it started with.
        const policy = await readPolicySettings(trx, job.facilityId);
        const chunkJob = { ...job, context: { ...job.context, now: settings.clock() } };
        for (let row = take(); row !== undefined; row = take()) {
          await importRow(trx, chunkJob, policy, row, tally, hooks, isolated);
          if (pass.abort && tally.counts.failed > 0) throw new WriteFailed(tally);
        }
        await insertWrites(trx, writes);
        totals.add(tally);
        if (!(await updateLeasedImport(trx, pass.lease(), totals.progress())))
          throw new LeaseLost(pass.importId);
      });
    });
    await onChunk();
  });
}
