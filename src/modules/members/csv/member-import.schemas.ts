import { type Static, Type } from 'typebox';
import { representationOf } from '../../../core/representation.js';
import {
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../../http/vocabulary/schemas.js';
import { importReportExample, MemberImportReport } from './member-csv.schemas.js';

export const IMPORT_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const IMPORT_PHASES = ['checking', 'writing', 'undoing'] as const;

const importExample = {
  id: 17,
  facility_id: 1,
  state: 'running',
  dry_run: false,
  match_by: 'external_id',
  on_error: 'abort',
  progress: { phase: 'writing', rows_done: 12000, rows_total: 50000 },
  report: null,
  error: null,
  created_at: '2026-11-27T09:14:02.118Z',
  started_at: '2026-11-27T09:14:02.306Z',
  finished_at: null,
  expires_at: null,
};

const finishedExample = {
  ...importExample,
  id: 16,
  state: 'succeeded',
  dry_run: true,
  progress: { phase: 'checking', rows_done: 3, rows_total: 3 },
  report: importReportExample,
  finished_at: '2026-11-27T09:13:40.551Z',
  expires_at: '2026-12-04T09:13:40.551Z',
};

export const MemberImport = Type.Object(
  {
    id: Id,
    facility_id: Id,
    state: StringEnum(IMPORT_STATES, {
      description:
        '`queued` until a process takes it, `running`, then `succeeded` (the report says what each row did, ' +
        'failing rows included) or `failed` (`error` says why it could not finish)',
    }),
    dry_run: Type.Boolean(),
    match_by: StringEnum(['external_id', 'email', 'none'] as const),
    on_error: StringEnum(['abort', 'skip'] as const),
    progress: Type.Object(
      {
        phase: Nullable(StringEnum(IMPORT_PHASES), {
          description:
            '`checking`: every row is tried and nothing is written (a dry run, and the first pass of ' +
            '`on_error=abort`); `writing`; `undoing`: an `abort` import takes back what it wrote. Null until it starts',
        }),
        rows_done: Type.Integer({ minimum: 0, description: 'Rows of the phase done' }),
        rows_total: Nullable(Type.Integer({ minimum: 0 }), {
          description: "The file's rows (known once the upload is read; null until then)",
        }),
      },
      { additionalProperties: false },
    ),
    report: Type.Union([Ref(MemberImportReport), Type.Null()], {
      description: 'What the import did (or, on a dry run, would do); null until it has finished',
    }),
    error: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({
              description: 'A problem code, as `Problem` and `ValidationProblem` list them',
            }),
            message: Type.String(),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why a `failed` job could not finish; null otherwise' },
    ),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
    expires_at: Nullable(Timestamp, {
      description:
        'When a finished job and its report are deleted (IMPORT_REPORT_RETENTION_DAYS after it ended)',
    }),
  },
  {
    $id: 'MemberImport',
    additionalProperties: false,
    description:
      'A CSV import of members, run as a job: its state, its progress, and once finished its report',
    examples: [importExample, finishedExample],
  },
);
export type MemberImport = Static<typeof MemberImport>;
export const memberImportRepresentation = representationOf(MemberImport, [MemberImportReport]);

export const MemberImportPage = ListResponse('imports', MemberImport, {
  $id: 'MemberImportPage',
  examples: [{ imports: [finishedExample, importExample], next_cursor: null }],
});

export const MemberImportListQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false });

export const MemberImportParams = Type.Object(
  { facility_id: Id, import_id: Id },
  { additionalProperties: false },
);
