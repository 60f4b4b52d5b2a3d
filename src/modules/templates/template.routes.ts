import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { Ref } from '../../http/vocabulary/schemas.js';
import { PlanTemplatePage, TemplateListQuery, templateRepresentation } from './template.schemas.js';

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/plan-templates',
    {
      schema: {
        tags: ['templates'],
        operationId: 'listPlanTemplates',
        summary: 'List plan templates',
        description:
          'Lists the plan templates by id, one page at a time: pass `next_cursor` as `cursor` for the next ' +
          'page. Templates are the same for every facility and read-only; create a plan from one with ' +
          '`template_id`.',
        querystring: TemplateListQuery,
        response: {
          200: { ...Ref(PlanTemplatePage), description: 'One page of plan templates' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      // In memory: the page's bytes are counted as it is serialized.
      return sendPage(reply, 'templates', page, templateRepresentation, ({ afterId, rows }) =>
        app.templates.list({ sportId: request.query.sport_id, afterId, limit: rows }),
      );
    },
  );
};
