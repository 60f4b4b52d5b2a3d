import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidField } from '../../core/errors.js';
import { replyWithResource } from '../../http/resource-reply.js';
import { BODY_PROBLEMS, IfMatchHeaders, NoContent, problemResponses, Resource } from '../../http/schemas.js';
import { writeContextOf } from '../../http/write-request.js';
import {
  Entitlement,
  EntitlementCollection,
  EntitlementParams,
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
} from './entitlement.service.js';
import { PlanParams } from './plan.schemas.js';

const COLLECTION = '/admin/facilities/:facility_id/plans/:plan_id/entitlements';

export const entitlementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    COLLECTION,
    {
      schema: {
        tags: ['entitlements'],
        operationId: 'getEntitlements',
        summary: "Read a plan's entitlements, sorted by key",
        params: PlanParams,
        response: { 200: Resource(EntitlementCollection), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      const { value, version } = await getEntitlements(app.db, facility_id, plan_id);
      return replyWithResource(
        reply,
        entitlementCollectionRepresentation,
        { entitlements: value },
        { version },
      );
    },
  );

  app.put(
    COLLECTION,
    {
      schema: {
        tags: ['entitlements'],
        operationId: 'replaceEntitlements',
        summary: "Replace all of a plan's entitlements",
        params: PlanParams,
        headers: IfMatchHeaders,
        body: ReplaceEntitlementsBody,
        response: {
          200: Resource(EntitlementCollection),
          ...problemResponses(404, 409, 412, ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id } = request.params;
      const { value, version } = await replacePlanEntitlements(
        app.db,
        writeContextOf(request),
        facility_id,
        plan_id,
        request.body.entitlements,
      );
      return replyWithResource(
        reply,
        entitlementCollectionRepresentation,
        { entitlements: value },
        { version },
      );
    },
  );

  app.put(
    `${COLLECTION}/:key`,
    {
      schema: {
        tags: ['entitlements'],
        operationId: 'setEntitlement',
        summary: 'Set one entitlement (201 when the key is new, 200 when replaced)',
        params: EntitlementParams,
        headers: IfMatchHeaders,
        body: SetEntitlementBody,
        response: {
          200: Resource(Entitlement),
          201: Resource(Entitlement),
          ...problemResponses(404, 409, 412, ...BODY_PROBLEMS),
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
      schema: {
        tags: ['entitlements'],
        operationId: 'deleteEntitlement',
        summary: 'Remove one entitlement',
        params: EntitlementParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...problemResponses(404, 409, 412) },
      },
    },
    async (request, reply) => {
      const { facility_id, plan_id, key } = request.params;
      await removePlanEntitlement(app.db, writeContextOf(request), facility_id, plan_id, key);
      return reply.code(204).send(null);
    },
  );
};
