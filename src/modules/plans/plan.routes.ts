import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/page-reply.js';
import { replyWithResource } from '../../http/resource-reply.js';
import {
  BODY_PROBLEMS,
  FacilityParams,
  HardDeleteQuery,
  IfMatchHeaders,
  NoContent,
  problemResponses,
  Resource,
} from '../../http/schemas.js';
import { trimBodyFields } from '../../http/trim.js';
import { locationOf, writeContextOf } from '../../http/write-request.js';
import { IdempotencyHeaders } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  Plan,
  PlanCreate,
  PlanList,
  PlanListQuery,
  PlanParams,
  PlanPatch,
  planRepresentation,
} from './plan.schemas.js';
import { createPlan, deletePlan, getPlan, listPlansOfFacility, patchPlan } from './plan.service.js';

const trimName = trimBodyFields('name');

export const planRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/plans',
    {
      schema: {
        tags: ['plans'],
        operationId: 'createPlan',
        summary: 'Create a plan',
        params: FacilityParams,
        headers: IdempotencyHeaders,
        body: PlanCreate,
        response: { 201: Resource(Plan, { created: true }), ...problemResponses(409, 422, ...BODY_PROBLEMS) },
      },
      preValidation: trimName,
    },
    async (request, reply) => {
      const { facility_id } = request.params;
      const plan = await createPlan(
        app.db,
        writeContextOf(request, { reply, representation: planRepresentation }),
        app.templates,
        facility_id,
        request.body,
      );
      return replyWithResource(reply, planRepresentation, plan, {
        status: 201,
        location: locationOf(request, plan.id),
      });
    },
  );

  app.get(
    '/admin/facilities/:facility_id/plans',
    {
      schema: {
        tags: ['plans'],
        operationId: 'listPlans',
        summary: 'List plans (active ones unless include_inactive=true)',
        params: FacilityParams,
        querystring: PlanListQuery,
        response: { 200: PlanList, ...problemResponses() },
      },
    },
    async (request, reply) => {
      const filter = {
        sportId: request.query.sport_id,
        includeInactive: request.query.include_inactive === true,
      };
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'plans', page, planRepresentation, (read) =>
        listPlansOfFacility(app.db, request.params.facility_id, filter, read),
      );
    },
  );

  app.get(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        operationId: 'getPlan',
        summary: 'Read a plan (soft-deleted plans too)',
        params: PlanParams,
        response: { 200: Resource(Plan), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      return replyWithResource(reply, planRepresentation, await getPlan(app.db, facility_id, plan_id));
    },
  );

  app.patch(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        operationId: 'updatePlan',
        summary: 'Change some fields of a plan; {"is_active": true} restores an archived plan',
        params: PlanParams,
        headers: IfMatchHeaders,
        body: PlanPatch,
        response: { 200: Resource(Plan), ...problemResponses(404, 409, 412, ...BODY_PROBLEMS) },
      },
      preValidation: trimName,
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      const plan = await patchPlan(app.db, writeContextOf(request), facility_id, plan_id, request.body);
      return replyWithResource(reply, planRepresentation, plan);
    },
  );

  app.delete(
    '/admin/facilities/:facility_id/plans/:plan_id',
    {
      schema: {
        tags: ['plans'],
        operationId: 'deletePlan',
        summary: 'Archive a plan, or remove it for good with hard_delete=true',
        params: PlanParams,
        headers: IfMatchHeaders,
        querystring: HardDeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 409, 412) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      const hard = request.query.hard_delete === true;
      await deletePlan(app.db, writeContextOf(request), facility_id, plan_id, hard);
      return reply.code(204).send(null);
    },
  );
};
