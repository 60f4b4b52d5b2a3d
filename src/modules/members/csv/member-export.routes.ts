import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { callerKeyOf } from '../../../core/principal.js';
import { sendProblem } from '../../../http/pipeline/error-handler.js';
import { problemResponses } from '../../../http/vocabulary/responses.js';
import { FacilityParams, Ref } from '../../../http/vocabulary/schemas.js';
import { memberFilterOf } from '../member.schemas.js';
import { MemberExportQuery, MembersCsv } from './member-csv.schemas.js';
import { exportMembersCsv, exportStream } from './member-export.service.js';

export interface ExportLimits {
  /** EXPORT_CONCURRENCY: exports a process streams at once; more are 503 with Retry-After. */
  concurrency: number;
  /** EXPORTS_PER_KEY: exports one API key (or client address, without authentication) streams at once; more are 429. */
  perKey: number;
}

/** Seconds a refused export is told to wait: an export of a large facility takes seconds. */
const RETRY_AFTER_SECONDS = '5';

/** The CSV export of a facility's members, a stream bounded per process and per key. */
export const memberExportRoutes: FastifyPluginAsyncTypebox<ExportLimits> = async (app, limits) => {
  let streaming = 0;
  const byKey = new Map<string, number>();

  // Before any work: the export's place is taken here and given back when its connection is done with it.
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = callerKeyOf(request.principal) ?? `address:${request.ip}`;
    const ofKey = byKey.get(key) ?? 0;
    if (ofKey >= limits.perKey) {
      throw new AppError(
        'rate_limited',
        `This API key streams ${ofKey} exports already, the most it may at once (EXPORTS_PER_KEY); retry when one has ended`,
        { headers: { 'retry-after': RETRY_AFTER_SECONDS } },
      );
    }
    if (streaming >= limits.concurrency) {
      // Answered here, not logged as the error handler logs a lost database.
      const busy = `This process streams ${streaming} exports already; retry shortly`;
      return sendProblem(
        request,
        reply,
        new AppError('service_unavailable', busy, { headers: { 'retry-after': RETRY_AFTER_SECONDS } }),
      );
    }
    streaming += 1;
    byKey.set(key, ofKey + 1);
    reply.raw.once('close', () => {
      streaming -= 1;
      const left = (byKey.get(key) ?? 1) - 1;
      if (left === 0) byKey.delete(key);
      else byKey.set(key, left);
    });
  };

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
          "a tab or a carriage return), and one starting with ', is written with a leading '; an import reads " +
          'it back without. A value holding a comma or a semicolon is quoted. The file imports back with ' +
          '`match_by=external_id`. A process streams at most EXPORT_CONCURRENCY exports at once (503 with ' +
          'Retry-After beyond), an API key at most EXPORTS_PER_KEY (429 with Retry-After beyond).',
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
      onRequest: admit,
    },
    async (request, reply) => {
      const { facility_id } = request.params;
      const rows = exportMembersCsv(
        app.db,
        facility_id,
        memberFilterOf(request.query),
        app.pageMaxBytes,
        app.bulkGovernor,
      );
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="members-facility-${facility_id}.csv"`)
          // A stream, sent as it is read; the schema's string type is for the document.
          .send(exportStream(rows) as unknown as string)
      );
    },
  );
};
