import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses, Resource } from '../../http/vocabulary/responses.js';
import { FacilityParams, IfMatchHeaders, Ref } from '../../http/vocabulary/schemas.js';
import { Policy, PolicyUpdate, policyRepresentation } from './policy.schemas.js';
import { getOrCreatePolicy, patchPolicy } from './policy.service.js';

export const policyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/facilities/:facility_id/policy',
    {
      schema: {
        tags: ['policy'],
        operationId: 'getPolicy',
        summary: 'Read the facility policy (created with defaults on first read)',
        description:
          'Reads the policy of the facility; the first read creates it with the defaults the `Policy` schema ' +
          'lists. Each field says whether this service enforces it or only stores it for other systems.',
        params: FacilityParams,
        response: { 200: Resource(Policy, { description: 'The policy' }), ...problemResponses() },
      },
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        policyRepresentation,
        await getOrCreatePolicy(app.db, request.params.facility_id, app.now()),
      ),
  );

  app.patch(
    '/admin/facilities/:facility_id/policy',
    {
      config: { permission: 'policy.write' },
      schema: {
        tags: ['policy'],
        operationId: 'updatePolicy',
        summary: 'Change some policy fields (creates the policy if needed)',
        description:
          'Changes the fields sent (creating the policy with its defaults first, if needed); a PATCH that ' +
          'changes nothing changes neither `updated_at` nor the ETag. `timezone` must be an IANA time zone ' +
          'name (400 `validation_error`). Changes apply to later writes only: members already stored are not ' +
          'checked again. With `If-Match`, only if the policy is unchanged since read (else 412 ' +
          '`precondition_failed`).',
        params: FacilityParams,
        headers: IfMatchHeaders,
        body: Ref(PolicyUpdate),
        response: {
          200: Resource(Policy, { description: 'The policy as changed' }),
          ...problemResponses('precondition_failed', ...BODY_PROBLEMS),
        },
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
