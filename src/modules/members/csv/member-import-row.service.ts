import { AppError, type ErrorCode, type FieldError } from '../../../core/errors.js';
import type { WriteContext } from '../../../core/write-context.js';
import type { Executor } from '../../../db/database.js';
import { inSavepoint } from '../../../journal/journal.js';
import type { PolicySettings } from '../../policy/policy.service.js';
import { findMemberIdByKey } from '../member.repository.js';
import type { Member, MemberCreate, MemberUpdate } from '../member.schemas.js';
import { createMemberIn, patchMemberIn } from '../member.service.js';
import { fieldsOfRow } from './member-csv.columns.js';
import type { CsvRow } from './member-csv.reader.js';
import type { RowErrorCode } from './member-csv.schemas.js';
import type { FileKeys } from './member-import-file-keys.js';

export type MatchBy = 'external_id' | 'email' | 'none';

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

export interface ImportCounts {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** What some rows did: their counts and every problem of their failing rows. */
export interface Tally {
  counts: ImportCounts;
  errors: RowError[];
}

export const emptyTally = (): Tally => ({
  counts: { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 },
  errors: [],
});

/** The member a row's key matched, as it was before the row. */
export type Match = NonNullable<Awaited<ReturnType<typeof findMemberIdByKey>>>;

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

/** What a pass does around each row besides the row's own write. */
export interface RowHooks {
  /** Before the row's key is looked up: the check makes earlier chunks' changes of keys visible. */
  beforeRow?(trx: Executor, cells: Record<string, string>): Promise<void>;
  /** Before a matched member is changed: what undoing the change will need. */
  beforeUpdate?(trx: Executor, memberId: number): Promise<string>;
  /** After the row's write succeeded. */
  written?(write: {
    row: number;
    memberId: number;
    match: Match | undefined;
    after: Member;
    before: string | null;
  }): void;
}

export interface RowJob {
  facilityId: number;
  context: WriteContext<Member>;
  validator: RowValidator;
  matchBy: MatchBy;
  keys: FileKeys;
}

/**
 * A row's write failed outside a savepoint: its chunk's transaction is no
 * longer of use (on PostgreSQL it is aborted) and its rows must run again,
 * each in a savepoint.
 */
export class RowNeedsIsolation extends Error {
  constructor(readonly failure: unknown) {
    super('a row failed outside a savepoint');
  }
}

/**
 * Tries one row, as a POST (no match) or a PATCH (a match) of its fields
 * would be. `isolated`: in a savepoint, so that a failing row leaves nothing
 * and is tallied with its problems, the rows after it seeing the ones
 * before. Not isolated (two statements fewer a row), a write that fails
 * throws RowNeedsIsolation.
 */
export async function importRow(
  trx: Executor,
  job: RowJob,
  policy: PolicySettings,
  { row, line, cells }: CsvRow,
  tally: Tally,
  hooks: RowHooks,
  isolated: boolean,
): Promise<void> {
  tally.counts.rows += 1;
  const fail = (problems: { column: string | null; code: RowErrorCode; message: string }[]) => {
    tally.counts.failed += 1;
    for (const problem of problems) tally.errors.push({ row, line, ...problem });
  };
  // Before the row's key is looked up: whether it matches depends on earlier rows, which a check cannot see.
  const repeated = job.keys.repeatedIn(cells);
  if (repeated !== undefined) return fail([{ ...repeated, code: repeated.code as RowErrorCode }]);
  await hooks.beforeRow?.(trx, cells);
  const matchKey = job.matchBy === 'none' ? undefined : cells[job.matchBy]?.trim() || undefined;
  const match =
    matchKey === undefined
      ? undefined
      : await findMemberIdByKey(trx, job.facilityId, { [job.matchBy]: matchKey } as { email: string });
  const memberId = match?.id;
  const fields = fieldsOfRow(cells, memberId !== undefined);
  // A new member starts pending or active, as with POST; a later status is then a move, as with PATCH.
  const { status, ...createFields } = fields;
  const moveAfterCreate =
    memberId === undefined && status !== undefined && status !== 'pending' && status !== 'active';
  const createBody = moveAfterCreate ? createFields : fields;
  const invalid = memberId === undefined ? job.validator.create(createBody) : job.validator.update(fields);
  if (moveAfterCreate && invalid.length === 0) invalid.push(...job.validator.update({ status }));
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
  const { context, facilityId } = job;
  const write = async () => {
    if (memberId === undefined) {
      let created = await createMemberIn(trx, context, facilityId, createBody as MemberCreate, policy);
      if (moveAfterCreate)
        created = await patchMemberIn(trx, context, facilityId, created.id, { status } as MemberUpdate);
      tally.counts.created += 1;
      hooks.written?.({ row, memberId: created.id, match, after: created, before: null });
    } else {
      const before = (await hooks.beforeUpdate?.(trx, memberId)) ?? null;
      const after = await patchMemberIn(trx, context, facilityId, memberId, fields as MemberUpdate);
      if (after.updated_at === match?.updated_at) tally.counts.unchanged += 1;
      else {
        tally.counts.updated += 1;
        hooks.written?.({ row, memberId, match, after, before });
      }
    }
  };
  try {
    await (isolated ? inSavepoint(trx, write) : write());
  } catch (error) {
    if (!isolated) throw new RowNeedsIsolation(error);
    if (!(error instanceof AppError)) throw error;
    // A row is refused with what a POST or PATCH of it would answer: one of the row codes.
    fail([
      {
        column: COLUMN_OF_CODE[error.code] ?? null,
        code: error.code as RowErrorCode,
        message: error.message,
      },
    ]);
  }
}
