import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { invalidField } from '../../core/errors.js';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses, Resource } from '../../http/vocabulary/responses.js';
import { IfMatchHeaders, NoContent, Ref } from '../../http/vocabulary/schemas.js';
import {
  Entitlement,
  EntitlementParams,
  Entitlements,
  entitlementCollectionRepresentation,
  entitlementRepresentation,
  ReplaceEntitlementsBody,
  SetEntitlementBody,
} from './entitlement.schemas.js';
import {
  getEntitlements,
  removePlanEntitlement,
  replacePlanEntitlements,
  setPlanEntitlement,
  type Versioned,
} from './entitlement.service.js';
import { PlanParams } from './plan.schemas.js';
import './plan.problems.js';

const COLLECTION = '/admin/facilities/:facility_id/plans/:plan_id/entitlements';

/** The collection's answer: the plan's entitlements under its entitlements counter. */
function replyWithCollection(
  reply: FastifyReply,
  { value, version }: Versioned<Entitlement[]>,
): FastifyReply {
  return replyWithResource(reply, entitlementCollectionRepresentation, { entitlements: value }, { version });
}

export const entitlementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    COLLECTION,
    {
      schema: {
        tags: ['entitlements'],
        operationId: 'getEntitlements',
        summary: "Read a plan's entitlements, sorted by key",
        description:
          "Reads all of a plan's entitlements (an archived plan's too), sorted by key. The `ETag` is the " +
          "collection's: it changes with any change to the plan's entitlements, not with the plan's own " +
          'fields, and `If-Match` on every entitlement write takes it.',
        params: PlanParams,
        response: {
          200: Resource(Entitlements, { description: "The plan's entitlements" }),
          ...problemResponses('plan_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      return replyWithCollection(reply, await getEntitlements(app.db, facility_id, plan_id));
    },
  );

  app.put(
    COLLECTION,
    {
      config: { permission: 'plans.write' },
      schema: {
        tags: ['entitlements'],
        operationId: 'replaceEntitlements',
        summary: "Replace all of a plan's entitlements",
        description:
          "Replaces the plan's entitlements with those sent, as a list of `{key, value}` or a map of key to " +
          'value; keys not sent are removed. A plan has at most 100 entitlements, each key once (400 ' +
          "`validation_error`). An archived plan's entitlements cannot change (409 `plan_archived`). With " +
          "`If-Match` (the collection's ETag), only if they are unchanged since read (else 412 " +
          '`precondition_failed`).',
        params: PlanParams,
        headers: IfMatchHeaders,
        body: Ref(ReplaceEntitlementsBody),
        response: {
          200: Resource(Entitlements, { description: "The plan's entitlements as replaced" }),
          ...problemResponses('plan_not_found', 'plan_archived', 'precondition_failed', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      const replaced = await replacePlanEntitlements(
        app.db,
        writeContextOf(request),
        facility_id,
        plan_id,
        request.body.entitlements,
      );
      return replyWithCollection(reply, replaced);
    },
  );

  app.put(
    `${COLLECTION}/:key`,
    {
      config: { permission: 'plans.write' },
      schema: {
        tags: ['entitlements'],
        operationId: 'setEntitlement',
        summary: 'Set one entitlement (201 when the key is new, 200 when replaced)',
        description:
          'Sets the value of one key: 201 when the key is new, 200 when it replaced a value. A new key is ' +
          'refused once the plan has 100 (400 `validation_error`); a `key` in the body must equal the ' +
          "path's. An archived plan's entitlements cannot change (409 `plan_archived`). `If-Match` takes " +
          "this entitlement's ETag or the collection's, and for a key that does not exist is always 412 " +
          '`precondition_failed` (the key is not created).',
        params: EntitlementParams,
        headers: IfMatchHeaders,
        body: Ref(SetEntitlementBody),
        response: {
          200: Resource(Entitlement, { description: 'The entitlement, its value replaced' }),
          201: Resource(Entitlement, { description: 'The entitlement, new' }),
          ...problemResponses('plan_not_found', 'plan_archived', 'precondition_failed', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id, key } = request.params;
      if (request.body.key !== undefined && request.body.key !== key) {
        throw invalidField('body', '/key', `must equal the key in the path ("${key}")`);
      }
      const { value, version, created } = await setPlanEntitlement(
        app.db,
        writeContextOf(request),
        facility_id,
        plan_id,
        {
          key,
          value: request.body.value,
        },
      );
      return replyWithResource(reply, entitlementRepresentation, value, {
        status: created ? 201 : 200,
        version,
      });
    },
  );

  app.delete(
    `${COLLECTION}/:key`,
    {
      config: { permission: 'plans.write' },
      schema: {
        tags: ['entitlements'],
        operationId: 'deleteEntitlement',
        summary: 'Remove one entitlement',
        description:
          "Removes one key from the plan's entitlements (404 `entitlement_not_found` when it has none). An " +
          "archived plan's entitlements cannot change (409 `plan_archived`). `If-Match` takes this " +
          "entitlement's ETag or the collection's (else 412 `precondition_failed`).",
        params: EntitlementParams,
        headers: IfMatchHeaders,
        response: {
          204: NoContent,
          ...problemResponses(
            'plan_not_found',
            'entitlement_not_found',
            'plan_archived',
            'precondition_failed',
          ),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id, key } = request.params;
      await removePlanEntitlement(app.db, writeContextOf(request), facility_id, plan_id, key);
      return reply.code(204).send(null);
    },
  );
};
