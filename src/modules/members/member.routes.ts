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
  Member,
  MemberCreate,
  MemberList,
  MemberListQuery,
  MemberParams,
  MemberPatch,
  memberRepresentation,
} from './member.schemas.js';
import {
  createMember,
  deleteMember,
  getMember,
  listMembersOfFacility,
  patchMember,
} from './member.service.js';

const trimNames = trimBodyFields('first_name', 'last_name');

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/members',
    {
      schema: {
        tags: ['members'],
        operationId: 'createMember',
        summary: 'Add a member',
        params: FacilityParams,
        headers: IdempotencyHeaders,
        body: MemberCreate,
        response: {
          201: Resource(Member, { created: true }),
          ...problemResponses(409, 422, ...BODY_PROBLEMS),
        },
      },
      preValidation: trimNames,
    },
    async (request, reply) => {
      const member = await createMember(
        app.db,
        writeContextOf(request, { reply, representation: memberRepresentation }),
        request.params.facility_id,
        request.body,
      );
      return replyWithResource(reply, memberRepresentation, member, {
        status: 201,
        location: locationOf(request, member.id),
      });
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members',
    {
      schema: {
        tags: ['members'],
        operationId: 'listMembers',
        summary:
          'List members (filters combine with AND; removed members only when the status filter names them)',
        params: FacilityParams,
        querystring: MemberListQuery,
        response: { 200: MemberList, ...problemResponses() },
      },
    },
    async (request, reply) => {
      const { sport_id, status, role, plan_id, q } = request.query;
      const filter = {
        sportId: sport_id,
        statuses: status?.split(','),
        roles: role?.split(','),
        planId: plan_id,
        q,
      };
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'members', page, memberRepresentation, (read) =>
        listMembersOfFacility(app.db, request.params.facility_id, filter, read),
      );
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        operationId: 'getMember',
        summary: 'Read a member (removed members too)',
        params: MemberParams,
        response: { 200: Resource(Member), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      return replyWithResource(reply, memberRepresentation, await getMember(app.db, facility_id, member_id));
    },
  );

  app.patch(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        operationId: 'updateMember',
        summary: 'Change some fields of a member, or move its status',
        params: MemberParams,
        headers: IfMatchHeaders,
        body: MemberPatch,
        response: { 200: Resource(Member), ...problemResponses(404, 409, 412, 422, ...BODY_PROBLEMS) },
      },
      preValidation: trimNames,
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const member = await patchMember(app.db, writeContextOf(request), facility_id, member_id, request.body);
      return replyWithResource(reply, memberRepresentation, member);
    },
  );

  app.delete(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        operationId: 'deleteMember',
        summary: 'Remove a member (soft), or erase it with hard_delete=true',
        params: MemberParams,
        headers: IfMatchHeaders,
        querystring: HardDeleteQuery,
        response: { 204: NoContent, ...problemResponses(404, 412) },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const hard = request.query.hard_delete === true;
      await deleteMember(app.db, writeContextOf(request), facility_id, member_id, hard);
      return reply.code(204).send(null);
    },
  );
};
