import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { readPageRequest, toPage } from '../../http/paging.js';
import { replyWithResource } from '../../http/resource-reply.js';
import {
  BODY_PROBLEMS,
  FacilityParams,
  HardDeleteQuery,
  NoContent,
  problemResponses,
} from '../../http/schemas.js';
import { Plan, PlanCreate, PlanList, PlanListQuery, PlanParams, PlanPatch } from './plan.schemas.js';
import { createPlan, deletePlan, getPlan, listPlansOfFacility, patchPlan } from './plan.service.js';

export const planRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/plans',
    {
      schema: {
        tags: ['plans'],
        summary: 'Create a plan',
        params: FacilityParams,
        body: PlanCreate,
        response: { 201: Plan, ...problemResponses(409, 422, ...BODY_PROBLEMS) },
      },
      preValidation: trimName,
    },
    async (request, reply) => {
      const plan = await createPlan(app.db, app.templates, request.params.facility_id, request.body);
      return replyWithResource(reply, plan, {
        status: 201,
        location: `${request.url.split('?')[0]}/${plan.id}`,
      });
    },
  );

  app.get(
    '/admin/facilities/:facility_id/plans',
    {
      schema: {
        tags: ['plans'],
        summary: 'List plans (active ones unless include_inactive=true)',
        params: FacilityParams,
        querystring: PlanListQuery,
        response: { 200: PlanList, ...problemResponses() },
      },
    },
    async (request) => {
      const page = readPageRequest(request.query);
      const rows = await listPlansOfFacility(
        app.db,
        request.params.facility_id,
        { sportId: request.query.sport_id, includeInactive: request.query.include_inactive === true },
        page,
      );
      const { items, nextCursor } = toPage(rows, page.limit);
      return { plans: items, next_cursor: nextCursor };
    },
  );

  app.get(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        summary: 'Read a plan (soft-deleted plans too)',
        params: PlanParams,
        response: { 200: Plan, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      return replyWithResource(reply, await getPlan(app.db, facility_id, plan_id));
    },
  );

  app.patch(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        summary: 'Change some fields of a plan; {"is_active": true} restores an archived plan',
        params: PlanParams,
        body: PlanPatch,
        response: { 200: Plan, ...problemResponses(404, 409, ...BODY_PROBLEMS) },
      },
      preValidation: trimName,
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      return replyWithResource(reply, await patchPlan(app.db, facility_id, plan_id, request.body));
    },
  );

  app.delete(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        summary: 'Archive a plan, or remove it for good with hard_delete=true',
        params: PlanParams,
        querystring: HardDeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      await deletePlan(app.db, facility_id, plan_id, request.query.hard_delete === true);
      return reply.code(204).send(null);
    },
  );
};

/**
 * A name's length counts after trimming ("  Gold  " is 4 characters), which
 * the schema cannot express, so the schema checks the trimmed name.
 */
async function trimName(request: FastifyRequest): Promise<void> {
  const body = request.body as { name?: unknown } | null;
  if (body !== null && typeof body === 'object' && typeof body.name === 'string') {
    body.name = body.name.trim();
  }
}
