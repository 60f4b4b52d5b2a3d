import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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
import { MEMBER_FIELD_PROBLEMS } from './member.problems.js';
import {
  Member,
  MemberCreate,
  MemberListQuery,
  MemberPage,
  MemberParams,
  MemberUpdate,
  memberRepresentation,
} from './member.schemas.js';
import { createMember, patchMember } from './member.service.js';
import { deleteMember } from './member-delete.service.js';
import { sendMemberList } from './member-list.reply.js';
import { getMember } from './member-read.service.js';
import '../freezes/freeze.problems.js';

const trimNames = trimBodyFields('first_name', 'last_name');

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/members',
    {
      config: { permission: 'members.write' },
      schema: {
        tags: ['members'],
        operationId: 'createMember',
        summary: 'Add a member',
        description:
          "Adds a member, `active` unless created `pending`, who joins today in the facility's time zone " +
          "unless `joined_on` says otherwise. The email is unique among the facility's members that are not " +
          'removed, ignoring case (409 `member_email_conflict`), and so is an `external_id` (409 ' +
          '`member_external_id_conflict`). A plan must be an active plan of the facility ' +
          '(422 `invalid_plan`) with a seat free when it has `max_members` (409 `plan_full`). A ' +
          "`date_of_birth` must not be in the future (400) nor make the member younger than the policy's " +
          "`min_member_age` (422 `member_too_young`). With the policy's `require_waiver`, an `active` member " +
          'needs `waiver_signed_at` (422 `waiver_required`). A plan with `duration_days` sets `ends_on` to ' +
          '`joined_on + duration_days - 1` unless the body gives it (null too). Send an `Idempotency-Key`: a retry with the same key and ' +
          'body within 24 hours answers the first response again and creates nothing (409 ' +
          '`idempotency_in_progress` while the first still runs; 422 `idempotency_key_reused` for the same key ' +
          'with another body).',
        params: FacilityParams,
        headers: IdempotencyHeaders,
        body: Ref(MemberCreate),
        response: {
          201: Resource(Member, { description: 'The created member', created: true }),
          ...problemResponses(...MEMBER_FIELD_PROBLEMS, ...IDEMPOTENCY_PROBLEMS, ...BODY_PROBLEMS),
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
        description:
          'Lists the members of the facility by id, or in the order `sort` names, one page at a time: pass ' +
          '`next_cursor` as `cursor` for the next page, with the same filters and sort. Filters combine ' +
          'with AND; every word of `q` must be part of the first name, last name, email, phone or external ' +
          'id, ignoring case and accents. Removed members are listed only when `status` names `removed`.',
        params: FacilityParams,
        querystring: MemberListQuery,
        response: { 200: { ...Ref(MemberPage), description: 'One page of members' }, ...problemResponses() },
      },
    },
    async (request, reply) => {
      return sendMemberList(reply, app.db, request.params.facility_id, request.query, app.pageMaxBytes);
    },
  );

  app.get(
    '/admin/facilities/:facility_id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        operationId: 'getMember',
        summary: 'Read a member (removed members too)',
        description:
          'Reads one member, removed members too. The `ETag` it answers is what `If-Match` takes on a later ' +
          'PATCH or DELETE of the member. A read shows the member as stored: a change the schedule has due (a ' +
          'freeze starting or ending, a term ending) is made by the service within a minute after midnight in ' +
          "the facility's time zone, and by any write to the member before it.",
        params: MemberParams,
        response: {
          200: Resource(Member, { description: 'The member' }),
          ...problemResponses('member_not_found'),
        },
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
      config: { permission: 'members.write' },
      schema: {
        tags: ['members'],
        operationId: 'updateMember',
        summary: 'Change some fields of a member, or move its status',
        description:
          'Changes the fields sent; a PATCH that changes nothing changes neither `updated_at` nor the ETag. ' +
          'A status moves only as the table of `MemberStatus` allows (409 `invalid_status_transition`; to ' +
          "`frozen` while the policy's `allow_freeze` is false, 409 `freeze_not_allowed`); a move from " +
          '`removed` restores the member. A move to `frozen` freezes the member open-ended from today: a ' +
          'freeze that ended today (frozen, then active, the same day) is under way again, and freezes planned ' +
          'later stay planned (the open-ended freeze ends the day before the first of them starts, so the ' +
          'member stays frozen through it); 422 `freeze_limit_exceeded` past the yearly limit. A move from ' +
          '`frozen` ends the freeze under way today; `status_reason` may come with a move (a move ' +
          "without one clears it). Becoming `active` with the policy's `require_waiver` needs " +
          '`waiver_signed_at` (422 `waiver_required`). Setting `ends_on` schedules a cancellation (null ' +
          'clears it); a day already past cancels the member at once, as `expired`. Joining a plan, or coming back to one, needs an active plan of the ' +
          'facility (422 `invalid_plan`) with a seat free (409 `plan_full`). The email and the `external_id` ' +
          'stay unique (409 `member_email_conflict`, `member_external_id_conflict`); a `date_of_birth` is checked as on create (422 `member_too_young`). With ' +
          '`If-Match`, only if the member is unchanged since read (else 412 `precondition_failed`).',
        params: MemberParams,
        headers: IfMatchHeaders,
        body: Ref(MemberUpdate),
        response: {
          200: Resource(Member, { description: 'The member as changed' }),
          ...problemResponses(
            'member_not_found',
            'invalid_status_transition',
            'freeze_not_allowed',
            'freeze_limit_exceeded',
            'waiver_required',
            'member_email_conflict',
            'member_external_id_conflict',
            'plan_full',
            'invalid_plan',
            'member_too_young',
            'precondition_failed',
            ...BODY_PROBLEMS,
          ),
        },
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
      config: { permission: 'members.delete' },
      schema: {
        tags: ['members'],
        operationId: 'deleteMember',
        summary: 'Remove a member (soft), or erase it with hard_delete=true',
        description:
          'Moves the member to `removed` (`deleted_at` set, the seat and the email freed); removing again ' +
          'changes nothing, and a PATCH of the status restores the member. With `hard_delete=true` the ' +
          'member is erased for good (its audit events stay). With `If-Match`, only if the member is ' +
          'unchanged since read (else 412 `precondition_failed`).',
        params: MemberParams,
        headers: IfMatchHeaders,
        querystring: HardDeleteQuery,
        response: {
          204: NoContent,
          ...problemResponses('member_not_found', 'precondition_failed'),
        },
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
