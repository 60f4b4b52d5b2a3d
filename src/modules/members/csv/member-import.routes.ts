import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { readPageRequest } from '../../../core/paging.js';
import { createValidatorCompiler } from '../../../http/pipeline/validation.js';
import { sendPage } from '../../../http/replies/page-reply.js';
import { IDEMPOTENCY_PROBLEMS, problemResponses } from '../../../http/vocabulary/responses.js';
import { FacilityParams, Ref } from '../../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../../infrastructure/idempotency/idempotency.hooks.js';
import { inWriteTransaction } from '../../../journal/journal.js';
import { MemberImportQuery, MembersCsv } from './member-csv.schemas.js';
import { findImport, type ImportRow, listImports, queueUpload } from './member-import.repository.js';
import {
  MemberImport,
  MemberImportListQuery,
  MemberImportPage,
  MemberImportParams,
  memberImportRepresentation,
} from './member-import.schemas.js';
import { importsPathOf, memberUploads, type UploadLimits } from './member-import.upload.js';
import { IMPORT_ROUTE_DESCRIPTION } from './member-import-route-docs.js';
import { toMemberImport } from './member-import-view.js';

/** How often a POST with `wait` looks at a job that another process runs. */
const WAIT_POLL_MS = 250;

const finished = (row: ImportRow) => row.state === 'succeeded' || row.state === 'failed';

/** CSV imports of a facility's members as jobs: the one scope that reads text/csv. */
export const memberImportRoutes: FastifyPluginAsyncTypebox<UploadLimits> = async (app, limits) => {
  const uploads = memberUploads(app, limits);
  // The body is streamed into the database as it arrives, never held whole (member-import.upload.ts).
  app.addContentTypeParser('text/csv', (request: FastifyRequest, body: IncomingMessage) =>
    uploads.receive(request, body),
  );
  const compileAsTheApp = createValidatorCompiler([]);
  const importNotFound = (facilityId: number, id: number) =>
    new AppError('import_not_found', `Facility ${facilityId} has no member import with id ${id}`);

  app.post(
    '/admin/facilities/:facility_id/members/import',
    {
      config: { permission: 'members.import' },
      schema: {
        tags: ['members'],
        operationId: 'importMembers',
        summary: 'Import members from a CSV file, or check one (dry run), as a job',
        description: IMPORT_ROUTE_DESCRIPTION,
        params: FacilityParams,
        querystring: MemberImportQuery,
        headers: IdempotencyHeaders,
        body: { content: { 'text/csv': { schema: Ref(MembersCsv) } } },
        response: {
          202: {
            ...Ref(MemberImport),
            description: 'The job, in the state it reached (with `wait`, possibly finished with its report)',
            headers: { location: { type: 'string', description: 'URL of the job' } },
          },
          ...problemResponses(
            'invalid_csv',
            'payload_too_large',
            'unsupported_media_type',
            'import_in_progress',
            ...IDEMPOTENCY_PROBLEMS,
          ),
        },
      },
      // Before the body is read: parameters, media type, size, this process's uploads, the jobs waiting,
      // and the facility's unfinished import (after authentication, which runs first).
      onRequest: uploads.admit,
      onSend: async (request, _reply, payload) => {
        await uploads.settle(request);
        return payload;
      },
      // The body is bytes, read row by row: each row is validated as the JSON body of a POST or PATCH.
      validatorCompiler: (route) =>
        route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : compileAsTheApp(route as never),
    },
    async (request, reply) => {
      const upload = request.memberUpload;
      const facilityId = request.params.facility_id;
      if (!upload?.lease) {
        // A retry of a remembered request is answered from its record before it gets here, unless that
        // record expired meanwhile: the facility's import is still not finished.
        throw new AppError('import_in_progress', `Facility ${facilityId} has an import that is not finished`);
      }
      const lease = upload.lease;
      const location = `${importsPathOf(request)}/${lease.id}`;
      let row = await inWriteTransaction(app.db, async (trx) => {
        const queued = await queueUpload(trx, lease, { rows_total: upload.rows, bytes: upload.bytes });
        if (!queued) throw new AppError('service_unavailable', 'The upload was held too long; send it again');
        const body = memberImportRepresentation(toMemberImport(queued));
        await request.idempotency?.store(trx, { status: 202, body, location, etag: null });
        return queued;
      });
      upload.queued = true;
      app.importWorker.wake();
      const waitMs = (request.query.wait ?? 0) * 1000;
      if (waitMs > 0) {
        holdConnectionOpen(request.raw.socket, app.config.stallTimeoutMs + waitMs);
        const deadline = performance.now() + waitMs;
        for (let left = waitMs; !finished(row) && left > 0; left = deadline - performance.now()) {
          await app.importWorker.moved(row.id, Math.min(left, WAIT_POLL_MS));
          row = (await findImport(app.db, facilityId, row.id)) ?? row;
        }
        holdConnectionOpen(request.raw.socket, app.config.stallTimeoutMs);
      }
      const body = memberImportRepresentation(toMemberImport(row));
      // The stored answer is the one sent: with `wait`, the job as it was when the wait ended.
      if (waitMs > 0) await request.idempotency?.store(app.db, { status: 202, body, location, etag: null });
      return reply
        .code(202)
        .header('location', location)
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(body as never);
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/imports/:import_id',
    {
      schema: {
        tags: ['members'],
        operationId: 'getMemberImport',
        summary: 'Follow a member import: its state, progress and, once finished, its report',
        description:
          'The job a POST to `…/members/import` answered with (its `Location`). Poll it until `state` is ' +
          '`succeeded` or `failed`; `progress` counts the rows of the current phase. A finished job and its ' +
          'report are kept IMPORT_REPORT_RETENTION_DAYS (7 by default; `expires_at`).',
        params: MemberImportParams,
        response: {
          200: { ...Ref(MemberImport), description: 'The job' },
          ...problemResponses('import_not_found'),
        },
      },
    },
    async (request) => {
      const { facility_id, import_id } = request.params;
      const row = await findImport(app.db, facility_id, import_id);
      if (!row) throw importNotFound(facility_id, import_id);
      return toMemberImport(row);
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/imports',
    {
      schema: {
        tags: ['members'],
        operationId: 'listMemberImports',
        summary: "List a facility's member imports, oldest first",
        description:
          'The facility’s import jobs by id, finished ones for IMPORT_REPORT_RETENTION_DAYS, a page at a time ' +
          '(pass `next_cursor` as `cursor`). A page ends early when its reports reach PAGE_MAX_BYTES.',
        params: FacilityParams,
        querystring: MemberImportListQuery,
        response: {
          200: { ...Ref(MemberImportPage), description: 'One page of import jobs' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      const serialize = (row: ImportRow) => memberImportRepresentation(toMemberImport(row));
      return sendPage(reply, 'imports', page, serialize, (read) =>
        listImports(app.db, request.params.facility_id, read),
      );
    },
  );
};

/**
 * A POST that waits for its job moves no bytes meanwhile: the connection's
 * stall timeout (STALL_TIMEOUT_MS) is lengthened by the wait, and set back
 * after it.
 */
function holdConnectionOpen(socket: Socket | null, timeoutMs: number): void {
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(timeoutMs); // app.inject's stand-in has none
}
