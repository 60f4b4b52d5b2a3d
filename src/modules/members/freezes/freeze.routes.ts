import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../../core/paging.js';
import { sendPage } from '../../../http/replies/page-reply.js';
import { locationOf, writeContextOf } from '../../../http/replies/write-request.js';
import { BODY_PROBLEMS, IDEMPOTENCY_PROBLEMS, problemResponses } from '../../../http/vocabulary/responses.js';
import { NoContent, Ref } from '../../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../../infrastructure/idempotency/idempotency.hooks.js';
import {
  Freeze,
  FreezeCreate,
  FreezeListQuery,
  FreezePage,
  FreezeParams,
  freezeRepresentation,
  MemberFreezesParams,
} from './freeze.schemas.js';
import { cancelFreeze, createFreeze, listFreezesOfMemberPage } from './member-freeze.service.js';
import '../member.problems.js';
import '../../freezes/freeze.problems.js';

const COLLECTION = '/admin/facilities/:facility_id/members/:member_id/freezes';

export const freezeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    COLLECTION,
    {
      config: { permission: 'members.write' },
      schema: {
        tags: ['freezes'],
        operationId: 'createFreeze',
        summary: 'Plan a dated freeze of a member',
        description:
          "Plans a freeze from `starts_on` to `ends_on`, both included, in the facility's time zone. On " +
          '`starts_on` the member becomes `frozen` (at once when it is today), on the day after `ends_on` ' +
          '`active` again; the service does this by itself. `starts_on` in the past or after `ends_on` is ' +
          "400. The policy's `allow_freeze` false is 409 `freeze_not_allowed`; a member that is not `active` " +
          'or `frozen` is 409 `invalid_status_transition`; a freeze sharing a day with another (an open-ended ' +
          'one reaches every day from its start) is 409 `freeze_overlap`; days frozen in a calendar year ' +
          "(past, current and planned freezes; open-ended ones to today) above the policy's " +
          '`max_freeze_days_per_year` is 422 `freeze_limit_exceeded`, whose detail says how many days are ' +
          'left. A member has at most 100 freezes. Takes an `Idempotency-Key` like every create.',
        params: MemberFreezesParams,
        headers: IdempotencyHeaders,
        body: Ref(FreezeCreate),
        response: {
          201: { ...Ref(Freeze), description: 'The planned freeze' },
          ...problemResponses(
            'member_not_found',
            'freeze_not_allowed',
            'invalid_status_transition',
            'freeze_overlap',
            'freeze_limit_exceeded',
            ...IDEMPOTENCY_PROBLEMS,
            ...BODY_PROBLEMS,
          ),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const freeze = await createFreeze(
        app.db,
        writeContextOf(request),
        facility_id,
        member_id,
        request.body,
      );
      return reply.code(201).header('location', locationOf(request, freeze.id)).send(freeze);
    },
  );

  app.get(
    COLLECTION,
    {
      schema: {
        tags: ['freezes'],
        operationId: 'listFreezes',
        summary: "List a member's freezes (cancelled ones too)",
        description:
          "Lists the member's freezes by id, one page at a time (pass `next_cursor` as `cursor`): planned, " +
          'under way, ended and cancelled ones, and the open-ended freezes that PATCHes to `frozen` opened.',
        params: MemberFreezesParams,
        querystring: FreezeListQuery,
        response: {
          200: { ...Ref(FreezePage), description: 'One page of freezes' },
          ...problemResponses('member_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'freezes', page, freezeRepresentation, (read) =>
        listFreezesOfMemberPage(app.db, facility_id, member_id, read),
      );
    },
  );

  app.delete(
    `${COLLECTION}/:freeze_id`,
    {
      config: { permission: 'members.write' },
      schema: {
        tags: ['freezes'],
        operationId: 'cancelFreeze',
        summary: 'Cancel a freeze (one under way ends today)',
        description:
          'Cancels a freeze: a planned one never starts; one under way ends today, so the member is ' +
          '`active` again tomorrow (a PATCH of the member to `active` returns it at once). Cancelling a ' +
          'cancelled freeze again changes nothing; a freeze that has ended is 409 `invalid_status_transition`.',
        params: FreezeParams,
        response: {
          204: NoContent,
          ...problemResponses('member_not_found', 'freeze_not_found', 'invalid_status_transition'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id, freeze_id } = request.params;
      await cancelFreeze(app.db, writeContextOf(request), facility_id, member_id, freeze_id);
      return reply.code(204).send(null);
    },
  );
};
