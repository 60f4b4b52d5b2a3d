import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest, toPage } from '../../http/paging.js';
import { replyWithResource } from '../../http/resource-reply.js';
import {
  BODY_PROBLEMS,
  FacilityParams,
  HardDeleteQuery,
  NoContent,
  problemResponses,
} from '../../http/schemas.js';
import {
  Member,
  MemberCreate,
  MemberList,
  MemberListQuery,
  MemberParams,
  MemberPatch,
} from './member.schemas.js';
import {
  createMember,
  deleteMember,
  getMember,
  listMembersOfFacility,
  patchMember,
} from './member.service.js';

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/members',
    {
      schema: {
        tags: ['members'],
        summary: 'Add a member',
        params: FacilityParams,
        body: MemberCreate,
        response: { 201: Member, ...problemResponses(409, 422, ...BODY_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const member = await createMember(app.db, request.params.facility_id, request.body);
      return replyWithResource(reply, member, {
        status: 201,
        location: `${request.url.split('?')[0]}/${member.id}`,
      });
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members',
    {
      schema: {
        tags: ['members'],
        summary:
          'List members (filters combine with AND; removed members only when the status filter names them)',
        params: FacilityParams,
        querystring: MemberListQuery,
        response: { 200: MemberList, ...problemResponses() },
      },
    },
    async (request) => {
      const { sport_id, status, role, plan_id, q } = request.query;
      const page = readPageRequest(request.query);
      const rows = await listMembersOfFacility(
        app.db,
        request.params.facility_id,
        { sportId: sport_id, statuses: status?.split(','), roles: role?.split(','), planId: plan_id, q },
        page,
      );
      const { items, nextCursor } = toPage(rows, page.limit);
      return { members: items, next_cursor: nextCursor };
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        summary: 'Read a member (removed members too)',
        params: MemberParams,
        response: { 200: Member, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      return replyWithResource(reply, await getMember(app.db, facility_id, member_id));
    },
  );

  app.patch(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        summary: 'Change some fields of a member, or move its status',
        params: MemberParams,
        body: MemberPatch,
        response: { 200: Member, ...problemResponses(404, 409, 422, ...BODY_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      return replyWithResource(reply, await patchMember(app.db, facility_id, member_id, request.body));
    },
  );

  app.delete(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        summary: 'Remove a member (soft), or erase it with hard_delete=true',
        params: MemberParams,
        querystring: HardDeleteQuery,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      await deleteMember(app.db, facility_id, member_id, request.query.hard_delete === true);
      return reply.code(204).send(null);
    },
  );
};
