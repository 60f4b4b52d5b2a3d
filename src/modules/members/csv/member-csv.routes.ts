import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../../core/errors.js';
import { IDEMPOTENCY_PROBLEMS, problemResponses } from '../../../http/responses.js';
import { FacilityParams, Ref } from '../../../http/schemas.js';
import { createValidatorCompiler, toFieldErrors } from '../../../http/validation.js';
import { writeContextOf } from '../../../http/write-request.js';
import { IdempotencyHeaders } from '../../../infrastructure/idempotency/idempotency.hooks.js';
import { MemberCreate, MemberPatch, memberFilterOf } from '../member.schemas.js';
import { assertMemberCsvReadable, readMemberCsv } from './member-csv.reader.js';
import {
  MemberExportQuery,
  MemberImportQuery,
  MemberImportReport,
  MembersCsv,
} from './member-csv.schemas.js';
import { exportMembersCsv } from './member-export.service.js';
import { importMembers, type RowValidator } from './member-import.service.js';
import './member-csv.problems.js';

export interface MemberImportLimits {
  /** IMPORT_MAX_BYTES: the largest CSV body. */
  maxBytes: number;
  /** IMPORT_MAX_ROWS: the most rows one import takes. */
  maxRows: number;
  /** IMPORT_CONCURRENCY: imports a process runs at once; more are 503 with Retry-After. */
  concurrency: number;
  /** Rows a skipping import commits at a time. */
  chunkRows: number;
}

const MAX_LISTED_ERRORS = 1000;

/** The body validation of POST and PATCH, for each row: one set of rules for the API and the import. */
function rowValidator(): RowValidator {
  const compile = createValidatorCompiler([]);
  const check = (schema: object) => {
    const validate = compile({ schema, httpPart: 'body', method: 'POST', url: '' }) as (data: unknown) => {
      error?: { validation: never };
    };
    return (fields: Record<string, unknown>) => {
      const { error } = validate(fields);
      return error ? toFieldErrors(error.validation, 'body') : [];
    };
  };
  return { create: check(Ref(MemberCreate)), update: check(Ref(MemberPatch)) };
}

/** CSV import and export of a facility's members: the one scope that reads and writes text/csv. */
export const memberCsvRoutes: FastifyPluginAsyncTypebox<MemberImportLimits> = async (app, limits) => {
  // The bytes as sent: read by csv-parse, and fingerprinted as they are for an Idempotency-Key.
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'buffer', bodyLimit: limits.maxBytes },
    (_request, body, done) => done(null, body),
  );
  const validator = rowValidator();
  const compileAsTheApp = createValidatorCompiler([]);
  let running = 0;

  app.post(
    '/admin/facilities/:facility_id/members/import',
    {
      bodyLimit: limits.maxBytes,
      schema: {
        tags: ['members'],
        operationId: 'importMembers',
        summary: 'Import members from a CSV file, or check one (dry run)',
        description:
          'Reads a CSV file of members (`MembersCsv`) and creates or updates a member per row. Each row is ' +
          'checked exactly as a POST (a new member) or a PATCH (a match, see `match_by`) of its fields would ' +
          'be, with the same codes: email and `external_id` unique in the facility and within the file ' +
          '(`member_email_conflict`, `member_external_id_conflict`), plan capacity (`plan_full`), the status ' +
          'moves, `member_too_young`, …; a new member with a status other than pending or active is created ' +
          'active and then moved. The answer lists each failing row (`row`, `line`, `column`, `code`, ' +
          '`message`) and counts. `dry_run=true` answers what the real run would and writes nothing. ' +
          '`on_error=abort` writes all rows or none; `on_error=skip` writes the good rows. Each row written ' +
          'is in the audit trail with the key as actor. At most IMPORT_MAX_BYTES (10 MiB; 413 ' +
          '`payload_too_large`) and IMPORT_MAX_ROWS (50,000; 400 `invalid_csv`); a file that is not such a ' +
          'CSV, or names an unknown column, is 400 `invalid_csv`. An `Idempotency-Key` makes a retry answer ' +
          'the first report again.',
        params: FacilityParams,
        querystring: MemberImportQuery,
        headers: IdempotencyHeaders,
        body: { content: { 'text/csv': { schema: Ref(MembersCsv) } } },
        response: {
          200: { ...Ref(MemberImportReport), description: 'What the import did or, on a dry run, would do' },
          ...problemResponses(
            'invalid_csv',
            'payload_too_large',
            'unsupported_media_type',
            ...IDEMPOTENCY_PROBLEMS,
          ),
        },
      },
      // The body is bytes, read row by row: each row is validated as the JSON body of a POST or PATCH.
      validatorCompiler: (route) =>
        route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : compileAsTheApp(route as never),
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new AppError('unsupported_media_type', 'Send the members as Content-Type: text/csv');
      }
      if (running >= limits.concurrency) {
        throw new AppError(
          'service_unavailable',
          `${limits.concurrency} imports are running; retry shortly`,
          {
            headers: { 'retry-after': '5' },
          },
        );
      }
      running += 1;
      try {
        const { dry_run = false, match_by = 'none', on_error = 'abort' } = request.query;
        await assertMemberCsvReadable(request.body, limits.maxRows);
        return await importMembers(
          app.db,
          writeContextOf(request),
          request.params.facility_id,
          readMemberCsv(request.body, limits.maxRows),
          validator,
          {
            dryRun: dry_run,
            matchBy: match_by,
            onError: on_error,
            chunkRows: limits.chunkRows,
            maxListedErrors: MAX_LISTED_ERRORS,
          },
        );
      } finally {
        running -= 1;
      }
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/export.csv',
    {
      schema: {
        tags: ['members'],
        operationId: 'exportMembers',
        summary: 'Export members as a CSV file',
        description:
          "Streams the facility's members, in id order, as a CSV file (`MembersCsv`): a BOM, a header row of " +
          'the member fields, a row a member; the filters are those of the member list (removed members only ' +
          'when `status` names `removed`). A value a spreadsheet would run as a formula (starting with = + - @, ' +
          "a tab or a carriage return) is written with a leading '; an import reads it back without. The file " +
          'imports back with `match_by=external_id`.',
        params: FacilityParams,
        querystring: MemberExportQuery,
        response: {
          200: {
            description: 'The members as CSV (Content-Disposition: attachment)',
            content: { 'text/csv': { schema: Ref(MembersCsv) } },
          },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const { facility_id } = request.params;
      const rows = exportMembersCsv(
        app.db,
        facility_id,
        memberFilterOf(request.query),
        app.pageMaxBytes,
        app.now,
      );
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="members-facility-${facility_id}.csv"`)
          // A stream, sent as it is read; the schema's string type is for the document.
          .send(Readable.from(rows) as unknown as string)
      );
    },
  );
};
