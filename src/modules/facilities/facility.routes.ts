import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../core/paging.js';
import type { Representation } from '../../core/representation.js';
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
import { FacilityParams, IfMatchHeaders, Ref } from '../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  type CreatedFacility,
  Facility,
  FacilityCreate,
  FacilityList,
  FacilityListQuery,
  FacilityUpdate,
  facilityRepresentation,
} from './facility.schemas.js';
import { createFacility, getFacility, listFacilitiesFor, patchFacility } from './facility.service.js';

const trimText = trimBodyFields('name', 'address', 'phone');

export const facilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/facilities',
    {
      schema: {
        tags: ['facilities'],
        operationId: 'listFacilities',
        summary: 'List the facilities the caller may reach',
        description:
          'Lists facilities by id, one page at a time. A caller with a role for every facility sees each ' +
          'facility that was created, named or written to; a caller with roles for some sees those, unnamed ' +
          'ones included (`name: null`). Archived facilities only with `status=archived` or `all`.',
        querystring: FacilityListQuery,
        response: {
          200: { ...Ref(FacilityList), description: 'One page of facilities' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      const status = request.query.status ?? 'active';
      return sendPage(reply, 'facilities', page, facilityRepresentation, (read) =>
        listFacilitiesFor(app.db, request.principal, status, read),
      );
    },
  );

  app.post(
    '/admin/facilities',
    {
      config: { permission: 'facilities.write' },
      schema: {
        tags: ['facilities'],
        operationId: 'createFacility',
        summary: 'Create a facility',
        description:
          'Creates a facility with an id above every id in use. Its name must be unique among facilities that ' +
          'are not archived, ignoring case (409 `facility_name_conflict`). `timezone` and `currency` set its ' +
          'policy. Only a caller whose role covers every facility may create one (else 403 `forbidden`). Send ' +
          'an `Idempotency-Key` to retry safely.',
        headers: IdempotencyHeaders,
        body: Ref(FacilityCreate),
        response: {
          201: Resource(Facility, { description: 'The created facility', created: true }),
          ...problemResponses('facility_name_conflict', ...IDEMPOTENCY_PROBLEMS, ...BODY_PROBLEMS),
        },
      },
      preValidation: trimText,
    },
    async (request, reply) => {
      // A created facility has its times: the representation of one that has them.
      const representation = facilityRepresentation as Representation<CreatedFacility>;
      const context = writeContextOf(request, { reply, representation });
      const facility = await createFacility(app.db, context, request.body);
      return replyWithResource(reply, facilityRepresentation, facility, {
        status: 201,
        location: locationOf(request, facility.id),
        version: Date.parse(facility.updated_at as string),
      });
    },
  );

  app.get(
    '/admin/facilities/:facility_id',
    {
      schema: {
        tags: ['facilities'],
        operationId: 'getFacility',
        summary: 'Read a facility',
        description:
          'Reads a facility. Every positive id is a facility: one that was never named answers `name: null`.',
        params: FacilityParams,
        response: { 200: Resource(Facility, { description: 'The facility' }), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const facility = await getFacility(app.db, request.params.facility_id);
      return sendFacility(reply, facility);
    },
  );

  app.patch(
    '/admin/facilities/:facility_id',
    {
      config: { permission: 'facilities.write' },
      schema: {
        tags: ['facilities'],
        operationId: 'updateFacility',
        summary: 'Change, name, archive or bring back a facility',
        description:
          'Changes the fields sent. `status: archived` archives the facility (its data stays and its id keeps ' +
          'working; it leaves the default list), `status: active` brings it back (409 `facility_name_conflict` ' +
          'if another facility took its name meanwhile). With `If-Match`, only if unchanged since read (412).',
        params: FacilityParams,
        headers: IfMatchHeaders,
        body: Ref(FacilityUpdate),
        response: {
          200: Resource(Facility, { description: 'The facility as changed' }),
          ...problemResponses('facility_name_conflict', 'precondition_failed', ...BODY_PROBLEMS),
        },
      },
      preValidation: trimText,
    },
    async (request, reply) => {
      const facility = await patchFacility(
        app.db,
        writeContextOf(request),
        request.params.facility_id,
        request.body,
      );
      return sendFacility(reply, facility);
    },
  );
};

function sendFacility(reply: Parameters<typeof replyWithResource>[0], facility: Facility) {
  return replyWithResource(reply, facilityRepresentation, facility, {
    version: facility.updated_at === null ? 0 : Date.parse(facility.updated_at),
  });
}
