import { AppError } from '../../../core/errors.js';
import { actorOfRow, principalOfActor } from '../../../core/principal.js';
import type { Db } from '../../../db/database.js';
import { readMemberCsv } from './member-csv.reader.js';
import { type ImportRow, type Lease, updateLeasedImport } from './member-import.repository.js';
import { checkRows } from './member-import-check.service.js';
import { type ChunkSettings, LeaseLost, RowQueue } from './member-import-chunks.js';
import { deleteChunks, deleteWrites, findChunk } from './member-import-data.repository.js';
import { FileKeys } from './member-import-file-keys.js';
import { ImportTotals } from './member-import-report.js';
import type { MatchBy, RowJob, RowValidator } from './member-import-row.service.js';
import { undoWrites } from './member-import-undo.service.js';
import { WriteFailed, writeRows } from './member-import-write.service.js';

export interface ImportRunSettings extends ChunkSettings {
  /** IMPORT_MAX_ROWS. */
  maxRows: number;
  validator: RowValidator;
  /** How long a finished job and its report are kept (IMPORT_REPORT_RETENTION_DAYS). */
  retentionMs: number;
}

/** The uploaded bytes of a job, chunk after chunk, read from the database as the rows are. */
async function* bytesOf(db: Db, importId: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const chunk = await findChunk(db, importId, seq);
    if (chunk === undefined) return;
    yield chunk;
  }
}

/**
 * Runs a job to its end, resuming where its last committed chunk left it:
 * a dry run checks every row; `on_error=skip` writes the rows that pass;
 * `on_error=abort` checks every row first and writes only if all pass,
 * then undoes what it wrote should a row fail after all (someone changed
 * the facility in between). Finishes the job with its report, or `failed`
 * with why. Throws LeaseLost when another process took the job over, and any
 * unexpected failure for the worker to retry.
 */
export async function runImport(
  db: Db,
  job: ImportRow,
  settings: ImportRunSettings,
  lease: () => Lease,
  onProgress: () => void,
): Promise<void> {
  const rowJob = (): RowJob => ({
    facilityId: job.facility_id,
    context: {
      principal: principalOfActor(actorOfRow(job)),
      requestId: job.request_id,
      now: settings.clock(),
    },
    validator: settings.validator,
    matchBy: job.match_by as MatchBy,
    keys: new FileKeys(),
  });
  const update = async (changes: Parameters<typeof updateLeasedImport>[2]) => {
    if (!(await updateLeasedImport(db, lease(), changes))) throw new LeaseLost(job.id);
    onProgress();
  };
  const finish = async (state: 'succeeded' | 'failed', report: unknown, error?: AppError) => {
    const finishedAt = settings.clock();
    await update({
      state,
      report: report === null ? null : JSON.stringify(report),
      error_code: error?.code ?? null,
      error_message: error?.message ?? null,
      finished_at: finishedAt.toISOString(),
      expires_at: new Date(finishedAt.getTime() + settings.retentionMs).toISOString(),
      locked_until: null,
      lease_token: null,
    });
    await deleteChunks(db, job.id);
    await deleteWrites(db, job.id);
  };
  const rowsFrom = async (done: number, keys: FileKeys) => {
    const rows = new RowQueue(readMemberCsv(bytesOf(db, job.id), settings.maxRows));
    await rows.skip(done, ({ cells }) => keys.repeatedIn(cells));
    return rows;
  };
  const dryRun = job.dry_run === 1;
  const abort = job.on_error === 'abort';
  let totals = new ImportTotals();
  try {
    if (job.phase === 'undoing') return await undoAndFail(db, job, settings, lease, finish);
    const resumed = job.phase === 'writing';
    if (dryRun || (abort && !resumed)) {
      // A check is not resumed: it wrote nothing, so it starts again.
      await update({ phase: 'checking', rows_done: 0 });
      const check = rowJob();
      await checkRows(db, check, await rowsFrom(0, check.keys), totals, settings, () =>
        update({ rows_done: totals.counts.rows }),
      );
      if (dryRun || totals.counts.failed > 0) return await finish('succeeded', totals.report(dryRun, false));
      totals = new ImportTotals();
      await update({ phase: 'writing', ...totals.progress(), errors: '[]' });
    } else if (!resumed) {
      await update({ phase: 'writing' });
    }
    if (resumed) totals = new ImportTotals(job);
    const write = rowJob();
    const rows = await rowsFrom(totals.counts.rows, write.keys);
    try {
      await writeRows(db, write, rows, totals, settings, { importId: job.id, abort, lease }, async () =>
        onProgress(),
      );
    } catch (error) {
      if (!(error instanceof WriteFailed)) throw error;
      return await startUndo(db, job, totals, error, settings, lease, finish);
    }
    await finish('succeeded', totals.report(false, totals.counts.rows > totals.counts.failed));
  } catch (error) {
    // The file could not be read to its end (it could when uploaded; IMPORT_MAX_ROWS lowered since, say).
    if (!(error instanceof AppError)) throw error;
    const written = !dryRun && totals.counts.created + totals.counts.updated > 0;
    await finish('failed', totals.counts.rows === 0 ? null : totals.report(dryRun, written), error);
  }
}

type Finish = (state: 'succeeded' | 'failed', report: unknown, error?: AppError) => Promise<void>;

/** An abort import's row failed while writing: the report and why are kept, then its writes undone. */
async function startUndo(
  db: Db,
  job: ImportRow,
  totals: ImportTotals,
  failure: WriteFailed,
  settings: ImportRunSettings,
  lease: () => Lease,
  finish: Finish,
): Promise<void> {
  const { created, updated } = totals.counts;
  const failing = failure.tally.errors[0];
  totals.errors = [];
  totals.add(failure.tally);
  const message =
    `Row ${failing.row} (line ${failing.line}) failed while the import was being written, after every row ` +
    `had passed the check: the facility changed meanwhile (${failing.message}). Nothing was imported: ` +
    `the ${created} members it had created are deleted and the ${updated} it had changed restored.`;
  const changes = {
    phase: 'undoing' as const,
    rows_done: 0,
    report: JSON.stringify(totals.report(false, false)),
    error_code: failing.code,
    error_message: message,
  };
  if (!(await updateLeasedImport(db, lease(), changes))) throw new LeaseLost(job.id);
  await undoAndFail(db, { ...job, ...changes }, settings, lease, finish);
}

async function undoAndFail(
  db: Db,
  job: ImportRow,
  settings: ImportRunSettings,
  lease: () => Lease,
  finish: Finish,
): Promise<void> {
  const context = {
    principal: principalOfActor(actorOfRow(job)),
    requestId: job.request_id,
    now: settings.clock(),
  };
  const notRestored = await undoWrites(
    db,
    { importId: job.id, facilityId: job.facility_id, context },
    settings,
    lease,
  );
  const left =
    notRestored.length === 0 ? '' : ` Left as they are, changed by others since: ${notRestored.join('; ')}.`;
  const error = new AppError(job.error_code as never, `${job.error_message}${left}`);
  await finish('failed', job.report === null ? null : JSON.parse(job.report), error);
}
