import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyWithResource } from '../../http/resource-reply.js';
import {
  BODY_PROBLEMS,
  FacilityParams,
  IfMatchHeaders,
  problemResponses,
  Resource,
} from '../../http/schemas.js';
import { writeContextOf } from '../../http/write-request.js';
import { Policy, PolicyPatch, policyRepresentation } from './policy.schemas.js';
import { getOrCreatePolicy, patchPolicy } from './policy.service.js';

export const policyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/facilities/:facility_id/policy',
    {
      schema: {
        tags: ['policy'],
        operationId: 'getPolicy',
        summary: 'Read the facility policy (created with defaults on first read)',
        params: FacilityParams,
        response: { 200: Resource(Policy), ...problemResponses() },
      },
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        policyRepresentation,
        await getOrCreatePolicy(app.db, request.params.facility_id),
      ),
  );

  app.patch(
    '/admin/facilities/:facility_id/policy',
    {
      schema: {
        tags: ['policy'],
        operationId: 'updatePolicy',
        summary: 'Change some policy fields (creates the policy if needed)',
        params: FacilityParams,
        headers: IfMatchHeaders,
        body: PolicyPatch,
        response: { 200: Resource(Policy), ...problemResponses(412, ...BODY_PROBLEMS) },
      },
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        policyRepresentation,
        await patchPolicy(app.db, writeContextOf(request), request.params.facility_id, request.body),
      ),
  );
};
