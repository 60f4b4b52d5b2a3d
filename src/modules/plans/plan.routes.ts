import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { trimBodyFields } from '../../http/replies/trim.js';
import { locationOf, writeContextOf } from '../../http/replies/write-request.js';
import {
  BODY_PROBLEMS,
  IDEMPOTENCY_PROBLEMS,
  problemResponses,
  Resource,
} from '../../http/vocabulary/responses.js';
import {
  FacilityParams,
  HardDeleteQuery,
  IfMatchHeaders,
  NoContent,
  Ref,
} from '../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  Plan,
  PlanCreate,
  PlanListQuery,
  PlanPage,
  PlanParams,
  PlanUpdate,
  planRepresentation,
} from './plan.schemas.js';
import { createPlan, deletePlan, getPlan, listPlansOfFacility, patchPlan } from './plan.service.js';
import './plan.problems.js';

const trimName = trimBodyFields('name');

export const planRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/plans',
    {
      config: { permission: 'plans.write' },
      schema: {
        tags: ['plans'],
        operationId: 'createPlan',
        summary: 'Create a plan',
        description:
          "Creates a plan in the facility. Its name must be unique among the facility's plans that are not " +
          "archived, ignoring case (409 `plan_name_conflict`). With `template_id`, the template's fields fill " +
          'those the body leaves out and its entitlements are copied (422 `invalid_template` when there is no ' +
          "such template); a plan that names no currency takes the facility policy's. Send an " +
          '`Idempotency-Key`: a retry with the same key and body within 24 hours answers the first response ' +
          'again and creates nothing (409 `idempotency_in_progress` while the first still runs; 422 ' +
          '`idempotency_key_reused` for the same key with another body).',
        params: FacilityParams,
        headers: IdempotencyHeaders,
        body: Ref(PlanCreate),
        response: {
          201: Resource(Plan, { description: 'The created plan', created: true }),
          ...problemResponses(
            'plan_name_conflict',
            'invalid_template',
            ...IDEMPOTENCY_PROBLEMS,
            ...BODY_PROBLEMS,
          ),
        },
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
        description:
          'Lists the plans of the facility by id, one page at a time: pass `next_cursor` as `cursor` for the ' +
          'next page, with the same filters. Only active plans are listed unless `include_inactive=true`, ' +
          'which adds inactive and archived ones.',
        params: FacilityParams,
        querystring: PlanListQuery,
        response: { 200: { ...Ref(PlanPage), description: 'One page of plans' }, ...problemResponses() },
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
        description:
          'Reads one plan, archived plans too (`deleted_at` set). The `ETag` it answers is what `If-Match` ' +
          'takes on a later PATCH or DELETE of the plan.',
        params: PlanParams,
        response: { 200: Resource(Plan, { description: 'The plan' }), ...problemResponses('plan_not_found') },
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
      config: { permission: 'plans.write' },
      schema: {
        tags: ['plans'],
        operationId: 'updatePlan',
        summary: 'Change some fields of a plan; {"is_active": true} restores an archived plan',
        description:
          'Changes the fields sent; the others keep their values, and a PATCH that changes nothing changes ' +
          "neither `updated_at` nor the ETag. The name stays unique among the facility's plans that are not " +
          'archived (409 `plan_name_conflict`). An archived plan can only be restored, by a body of exactly ' +
          '`{"is_active": true}`; anything else is 409 `plan_archived`. With `If-Match`, the write happens ' +
          'only if the plan is unchanged since it was read (else 412 `precondition_failed`).',
        params: PlanParams,
        headers: IfMatchHeaders,
        body: Ref(PlanUpdate),
        response: {
          200: Resource(Plan, { description: 'The plan as changed' }),
          ...problemResponses(
            'plan_not_found',
            'plan_name_conflict',
            'plan_archived',
            'precondition_failed',
            ...BODY_PROBLEMS,
          ),
        },
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
      config: { permission: 'plans.write' },
      schema: {
        tags: ['plans'],
        operationId: 'deletePlan',
        summary: 'Archive a plan, or remove it for good with hard_delete=true',
        description:
          'Archives the plan: it becomes inactive, `deleted_at` is set and its name is free again; members ' +
          'keep it, but no one can join it. Archiving again changes nothing. With `hard_delete=true` the plan ' +
          'and its entitlements are removed for good, which is refused while any member (removed ones too) ' +
          'refers to it (409 `plan_in_use`). With `If-Match`, only if the plan is unchanged since it was read ' +
          '(else 412 `precondition_failed`).',
        params: PlanParams,
        headers: IfMatchHeaders,
        querystring: HardDeleteQuery,
        response: {
          204: NoContent,
          ...problemResponses('plan_not_found', 'plan_in_use', 'precondition_failed'),
        },
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
