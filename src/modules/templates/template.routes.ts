import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest, toPage } from '../../http/paging.js';
import { problemResponses } from '../../http/schemas.js';
import { TemplateList, TemplateListQuery } from './template.schemas.js';

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/plan-templates',
    {
      schema: {
        tags: ['templates'],
        operationId: 'listPlanTemplates',
        summary: 'List plan templates',
        querystring: TemplateListQuery,
        response: { 200: TemplateList, ...problemResponses() },
      },
    },
    async (request) => {
      const page = readPageRequest(request.query);
      const rows = app.templates.list({
        sportId: request.query.sport_id,
        afterId: page.afterId,
        limit: page.limit + 1,
      });
      const { items, nextCursor } = toPage(rows, page.limit);
      return { templates: items, next_cursor: nextCursor };
    },
  );
};
