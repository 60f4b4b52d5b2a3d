import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidField } from '../../core/errors.js';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { FacilityParams, Ref } from '../../http/vocabulary/schemas.js';
import { listAuditEvents } from './audit.repository.js';
import { AuditEventListQuery, AuditEventPage, auditEventRepresentation } from './audit.schemas.js';

/** Read-only: nothing in the audit trail can be changed through the API. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/facilities/:facility_id/audit-events',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEvents',
        summary: 'List the audit trail of a facility: who changed what, when, with before and after values',
        description:
          'Lists the audit events of the facility by id, one page at a time: pass `next_cursor` as `cursor` ' +
          'for the next page, with the same filters. Every write that changed something is one event, ' +
          'written in the same transaction as the change; events cannot be changed or deleted.',
        params: FacilityParams,
        querystring: AuditEventListQuery,
        response: {
          200: { ...Ref(AuditEventPage), description: 'One page of audit events' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const { resource_type, resource_id, action, since } = request.query;
      const filter = {
        resourceType: resource_type,
        resourceId: resource_id,
        action,
        since: since === undefined ? undefined : toStoredTime(since),
      };
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'audit_events', page, auditEventRepresentation, (read) =>
        listAuditEvents(app.db, request.params.facility_id, filter, read),
      );
    },
  );
};

/**
 * `since` (an RFC 3339 date-time, any offset) as the stored form: ISO UTC with
 * milliseconds, which compares as text on SQLite and as a timestamp on
 * PostgreSQL. A leap second (…:60) counts as the last millisecond of its
 * minute; a time outside the years 0001 to 9999 (UTC) cannot be stored or
 * compared on both databases and is refused.
 */
function toStoredTime(since: string): string {
  const time = new Date(since.replace(/(T\d{2}:\d{2}):60(\.\d+)?/i, '$1:59.999'));
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 1 || year > 9999) {
    throw invalidField('query', 'since', 'must be a date-time from year 0001 to 9999 (UTC)');
  }
  return time.toISOString();
}
