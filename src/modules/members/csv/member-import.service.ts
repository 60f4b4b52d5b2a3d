import { AppError, type ErrorCode, type FieldError } from '../../../core/errors.js';
import type { WriteContext } from '../../../core/write-context.js';
import type { Db, Executor } from '../../../db/database.js';
import { planQueriesPerCall } from '../../../db/transaction-planning.js';
import { inSavepoint, inWriteTransaction } from '../../../journal/journal.js';
import { type PolicySettings, readPolicySettings } from '../../policy/policy.service.js';
import { findMemberIdByKey } from '../member.repository.js';
import type { Member, MemberCreate, MemberPatch } from '../member.schemas.js';
import { createMemberIn, patchMemberIn } from '../member.service.js';
import { fieldsOfRow } from './member-csv.columns.js';
import type { CsvRow } from './member-csv.reader.js';
import type { RowErrorCode } from './member-csv.schemas.js';

export type MatchBy = 'external_id' | 'email' | 'none';

export interface ImportOptions {
  dryRun: boolean;
  matchBy: MatchBy;
  onError: 'abort' | 'skip';
  /** Rows written in one transaction when skipping errors; between chunks other writes get their turn. */
  chunkRows: number;
  /** Row errors listed at most; `failed` counts them all. */
  maxListedErrors: number;
}

/** Checks a row's fields as the POST or PATCH body validation would; the route's validator, so the rules are one. */
export interface RowValidator {
  create(fields: Record<string, unknown>): FieldError[];
  update(fields: Record<string, unknown>): FieldError[];
}

export interface RowError {
  row: number;
  line: number;
  column: string | null;
  code: RowErrorCode;
  message: string;
}

export interface ImportReport {
  dry_run: boolean;
  /** Whether the rows were written: false on a dry run, and when `on_error=abort` met an error. */
  written: boolean;
  counts: { rows: number; created: number; updated: number; unchanged: number; failed: number };
  errors: RowError[];
  /** More row errors than `errors` lists. */
  errors_omitted: number;
}

/** The column a rule's problem is about. */
const COLUMN_OF_CODE: Partial<Record<ErrorCode, string>> = {
  member_email_conflict: 'email',
  member_external_id_conflict: 'external_id',
  plan_full: 'plan_id',
  invalid_plan: 'plan_id',
  member_too_young: 'date_of_birth',
  invalid_status_transition: 'status',
  freeze_not_allowed: 'status',
};

/** Rolls the transaction back after the rows were tried: a dry run, or an abort that met an error. */
class RollBack extends Error {}

/**
 * Imports the rows: each is validated and written exactly as a POST (no
 * match) or a PATCH (a match) would be, in a savepoint, so that a failing
 * row leaves nothing and the rows after it see the ones before. A dry run
 * and `on_error=abort` run in one transaction (rolled back by a dry run or
 * any error); `on_error=skip` commits every `chunkRows` rows. A dry run
 * therefore answers what the real run would, as long as nobody else writes
 * to the facility in between.
 */
export async function importMembers(
  db: Db,
  context: WriteContext<Member>,
  facilityId: number,
  rows: AsyncIterable<CsvRow>,
  validator: RowValidator,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    dry_run: options.dryRun,
    written: false,
    counts: { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 },
    errors: [],
    errors_omitted: 0,
  };
  const iterator = rows[Symbol.asyncIterator]();
  const oneTransaction = options.dryRun || options.onError === 'abort';
  let done = false;
  while (!done) {
    try {
      await inWriteTransaction(db, async (trx) => {
        await planQueriesPerCall(trx);
        // Once a transaction, not once a row: every row is checked against the policy it started with.
        const policy = await readPolicySettings(trx, facilityId);
        for (let inChunk = 0; oneTransaction || inChunk < options.chunkRows; inChunk++) {
          const next = await iterator.next();
          if (next.done) {
            done = true;
            break;
          }
          await importRow(trx, context, facilityId, policy, next.value, validator, options, report);
        }
        if (options.dryRun || (options.onError === 'abort' && report.counts.failed > 0)) throw new RollBack();
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
      return report;
    }
    // Let the requests that waited for the database go first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  report.written = report.counts.rows > report.counts.failed;
  return report;
}

async function importRow(
  trx: Executor,
  context: WriteContext<Member>,
  facilityId: number,
  policy: PolicySettings,
  { row, line, cells }: CsvRow,
  validator: RowValidator,
  options: ImportOptions,
  report: ImportReport,
): Promise<void> {
  report.counts.rows += 1;
  const fail = (problems: { column: string | null; code: ErrorCode; message: string }[]) => {
    // A row is refused with what a POST or PATCH of it would answer: one of the row codes.
    report.counts.failed += 1;
    for (const problem of problems) {
      if (report.errors.length < options.maxListedErrors)
        report.errors.push({ row, line, ...problem, code: problem.code as RowErrorCode });
      else report.errors_omitted += 1;
    }
  };
  const matchKey = options.matchBy === 'none' ? undefined : cells[options.matchBy]?.trim() || undefined;
  const match =
    matchKey === undefined
      ? undefined
      : await findMemberIdByKey(trx, facilityId, { [options.matchBy]: matchKey } as { email: string });
  const memberId = match?.id;
  const fields = fieldsOfRow(cells, memberId !== undefined);
  // A new member starts pending or active, as with POST; a later status is then a move, as with PATCH.
  const { status, ...createFields } = fields;
  const moveAfterCreate =
    memberId === undefined && status !== undefined && status !== 'pending' && status !== 'active';
  const createBody = moveAfterCreate ? createFields : fields;
  const invalid = memberId === undefined ? validator.create(createBody) : validator.update(fields);
  if (moveAfterCreate && invalid.length === 0) invalid.push(...validator.update({ status }));
  if (invalid.length > 0) {
    fail(
      invalid.map((error) => ({
        column: error.field.replace(/^\//, '') || null,
        code: 'validation_error',
        message: error.message,
      })),
    );
    return;
  }
  try {
    await inSavepoint(trx, async () => {
      if (memberId === undefined) {
        const created = await createMemberIn(trx, context, facilityId, createBody as MemberCreate, policy);
        if (moveAfterCreate)
          await patchMemberIn(trx, context, facilityId, created.id, { status } as MemberPatch);
        report.counts.created += 1;
      } else {
        const after = await patchMemberIn(trx, context, facilityId, memberId, fields as MemberPatch);
        if (after.updated_at === match?.updated_at) report.counts.unchanged += 1;
        else report.counts.updated += 1;
      }
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    fail([{ column: COLUMN_OF_CODE[error.code] ?? null, code: error.code, message: error.message }]);
  }
}
