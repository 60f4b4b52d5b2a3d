import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest, toPage } from '../../http/paging.js';
import { FacilityParams, problemResponses } from '../../http/schemas.js';
import { listAuditEvents } from './audit.repository.js';
import { AuditEventList, AuditEventListQuery } from './audit.schemas.js';

/** Read-only: nothing in the audit trail can be changed through the API. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/facilities/:facility_id/audit-events',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEvents',
        summary: 'List the audit trail of a facility: who changed what, when, with before and after values',
        params: FacilityParams,
        querystring: AuditEventListQuery,
        response: { 200: AuditEventList, ...problemResponses() },
      },
    },
    async (request) => {
      const { resource_type, resource_id, action, since } = request.query;
      const page = readPageRequest(request.query);
      const rows = await listAuditEvents(app.db, request.params.facility_id, {
        resourceType: resource_type,
        resourceId: resource_id,
        action,
        since: since === undefined ? undefined : new Date(since).toISOString(),
        afterId: page.afterId,
        limit: page.limit + 1,
      });
      const { items, nextCursor } = toPage(rows, page.limit);
      return { audit_events: items, next_cursor: nextCursor };
    },
  );
};
