import { type Static, Type } from 'typebox';
import type { ErrorCode } from '../../../core/errors.js';
import { StringEnum } from '../../../http/vocabulary/schemas.js';
import { MEMBER_FIELD_PROBLEMS } from '../member.problems.js';
import { MemberListQuery } from '../member.schemas.js';

const csvExample =
  'external_id;first_name;last_name;email;plan_id;status;notes\r\n' +
  'CRM-1042;Ada;Lovelace;ada@example.com;7;active;"Prefers mornings\r\nNo parking"\r\n' +
  'CRM-1043;Alan;Turing;alan@example.com;;frozen;\r\n';

/** A CSV file of members: read as bytes (never as a JSON value), described here for the document. */
export const MembersCsv = Type.String({
  $id: 'MembersCsv',
  description:
    'UTF-8 text, with or without a BOM; comma or semicolon between fields (detected from the header); fields ' +
    'quoted with " may hold the separator, quotes ("") and line breaks; CRLF or LF. The first line names the ' +
    'columns, in any order: the member fields (`first_name`, `last_name`, `email`, `phone`, `date_of_birth`, ' +
    '`sport_id`, `role`, `status`, `plan_id`, `joined_on`, `notes`, `external_id`); the fields the service ' +
    'sets (`id`, `created_at`, …) are accepted and ignored, so that an export imports back. An empty cell is no value: the ' +
    "field's default on a create, cleared on an update where the field may be null. A cell an export wrote with " +
    "a leading ' before = + - @, a tab or a carriage return is read without it.",
  examples: [csvExample],
});

/** The longest an import's POST holds its answer for the job to finish. */
export const MAX_IMPORT_WAIT_SECONDS = 30;

export const MemberImportQuery = Type.Object(
  {
    dry_run: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: every row is checked and tried as the real run would, and nothing is written',
      }),
    ),
    match_by: Type.Optional(
      StringEnum(['external_id', 'email', 'none'] as const, {
        default: 'none',
        description:
          'A row whose `external_id` (or email, ignoring case) is that of a member not removed updates that member ' +
          "(as a PATCH of the row's fields); the other rows create members (as a POST). `none`: every row creates.",
      }),
    ),
    on_error: Type.Optional(
      StringEnum(['abort', 'skip'] as const, {
        default: 'abort',
        description:
          '`abort`: every row is checked first, and any failing row means nothing is written; then the rows ' +
          'are written, and taken back should one fail after all. `skip`: the good rows are written (a ' +
          'chunk of rows a transaction) and the failing ones reported.',
      }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_IMPORT_WAIT_SECONDS,
        default: 0,
        description:
          'Seconds the answer may wait for the job to finish (a small file then comes back with its report). ' +
          'The answer is 202 with the job in whatever state it reached.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** What a POST or PATCH of a member can answer about its fields, its plan and its status. */
const ROW_ERROR_CODES = [
  'validation_error',
  ...MEMBER_FIELD_PROBLEMS,
  'invalid_status_transition',
  'freeze_not_allowed',
  'freeze_overlap',
  'freeze_limit_exceeded',
] as const satisfies readonly ErrorCode[];
export type RowErrorCode = (typeof ROW_ERROR_CODES)[number];

const RowError = Type.Object(
  {
    row: Type.Integer({ minimum: 1, description: 'The data row, 1 for the first after the header' }),
    line: Type.Integer({ minimum: 2, description: 'The line of the file the row starts on' }),
    column: Type.Union([Type.String(), Type.Null()], { description: 'The column at fault, when one is' }),
    code: StringEnum(ROW_ERROR_CODES, {
      description: 'The code a POST or PATCH of this row would have answered',
    }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const importReportExample = {
  dry_run: true,
  written: false,
  counts: { rows: 3, created: 1, updated: 1, unchanged: 0, failed: 1 },
  errors: [
    {
      row: 3,
      line: 5,
      column: 'email',
      code: 'member_email_conflict',
      message: 'A member with email ada@example.com already exists in this facility',
    },
  ],
  errors_omitted: 0,
};

export const MemberImportReport = Type.Object(
  {
    dry_run: Type.Boolean(),
    written: Type.Boolean({
      description:
        'Whether rows were written: false on a dry run, and when `on_error=abort` met a failing row',
    }),
    counts: Type.Object(
      {
        rows: Type.Integer({ minimum: 0 }),
        created: Type.Integer({ minimum: 0 }),
        updated: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        failed: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    errors: Type.Array(RowError, { description: "Each failing row's problems, in row order" }),
    errors_omitted: Type.Integer({ minimum: 0, description: 'Problems beyond those listed in `errors`' }),
  },
  {
    $id: 'MemberImportReport',
    additionalProperties: false,
    description: 'What an import did, or, on a dry run, would do, row by row',
    examples: [importReportExample],
  },
);
export type MemberImportReport = Static<typeof MemberImportReport>;

const { limit: _limit, cursor: _cursor, sort: _sort, ...listFilters } = MemberListQuery.properties;
export const MemberExportQuery = Type.Object(listFilters, { additionalProperties: false });
