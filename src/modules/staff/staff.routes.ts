import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.js';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { trimBodyFields } from '../../http/replies/trim.js';
import { locationOf, writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses, Resource } from '../../http/vocabulary/responses.js';
import { IfMatchHeaders, Ref } from '../../http/vocabulary/schemas.js';
import { linkDeliveryFor } from './link-delivery.js';
import {
  StaffInvite,
  StaffList,
  StaffListQuery,
  StaffParams,
  StaffUpdate,
  StaffUser,
  staffRepresentation,
} from './staff.schemas.js';
import { changeStaff, getStaff, inviteStaff, listStaffFor, sendLink } from './staff.service.js';

const trimName = trimBodyFields('name', 'email');

/** People who work at the facilities: owners manage them (permission `staff`). */
export const staffRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  const linksFor = linkDeliveryFor(config);
  const one = { ...problemResponses('staff_not_found') };

  app.get(
    '/admin/staff',
    {
      config: { permission: 'staff' },
      schema: {
        tags: ['staff'],
        operationId: 'listStaff',
        summary: 'List staff users',
        description:
          'Lists the people with a role in a facility the caller owns (every person for an owner of every ' +
          'facility), by id; `facility_id` and `state` narrow it.',
        querystring: StaffListQuery,
        response: {
          200: { ...Ref(StaffList), description: 'One page of staff users' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      const filter = { state: request.query.state, facilityId: request.query.facility_id };
      return sendPage(reply, 'staff', page, staffRepresentation, (read) =>
        listStaffFor(app.db, request.principal, filter, read),
      );
    },
  );

  app.post(
    '/admin/staff',
    {
      config: { permission: 'staff' },
      schema: {
        tags: ['staff'],
        operationId: 'inviteStaff',
        summary: 'Invite a person',
        description:
          'Makes a staff user (`state: invited`) with their roles and a one-time link to set a password ' +
          '(valid `INVITATION_VALID_DAYS`). With `SMTP_URL` set the link is e-mailed and `invitation.url` is ' +
          'null; without, `invitation.url` is the link to pass on. Roles only for facilities the caller owns ' +
          '(else 403). E-mails are unique ignoring case (409 `staff_email_conflict`).',
        body: Ref(StaffInvite),
        response: {
          201: Resource(StaffUser, { description: 'The invited person, with the invitation', created: true }),
          ...problemResponses('staff_email_conflict', ...BODY_PROBLEMS),
        },
      },
      preValidation: trimName,
    },
    async (request, reply) => {
      const user = await inviteStaff(app.db, writeContextOf(request), linksFor(request), request.body);
      return replyWithResource(reply, staffRepresentation, user, {
        status: 201,
        location: locationOf(request, user.id),
      });
    },
  );

  app.get(
    '/admin/staff/:staff_user_id',
    {
      config: { permission: 'staff' },
      schema: {
        tags: ['staff'],
        operationId: 'getStaff',
        summary: 'Read a staff user',
        description: 'Reads a person the caller may manage (404 `staff_not_found` for anyone else).',
        params: StaffParams,
        response: { 200: Resource(StaffUser, { description: 'The staff user' }), ...one },
      },
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        staffRepresentation,
        await getStaff(app.db, request.principal, request.params.staff_user_id),
      ),
  );

  app.patch(
    '/admin/staff/:staff_user_id',
    {
      config: { permission: 'staff' },
      schema: {
        tags: ['staff'],
        operationId: 'updateStaff',
        summary: "Change a person's name, roles or state",
        description:
          '`roles` replaces the list (only roles in facilities the caller owns: 403); `state: disabled` ends ' +
          'their sessions at once on every instance, `active` lets them sign in again. No one changes their own ' +
          'roles or state (403).',
        params: StaffParams,
        headers: IfMatchHeaders,
        body: Ref(StaffUpdate),
        response: {
          200: Resource(StaffUser, { description: 'The staff user as changed' }),
          ...one,
          ...problemResponses(...BODY_PROBLEMS),
        },
      },
      preValidation: trimName,
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        staffRepresentation,
        await changeStaff(app.db, writeContextOf(request), request.params.staff_user_id, request.body),
      ),
  );

  for (const [path, purpose, operationId, summary] of [
    ['invitation', 'invitation', 'resendStaffInvitation', 'Send a new invitation'],
    ['password-reset', 'password_reset', 'sendStaffPasswordReset', 'Send a password reset link'],
  ] as const) {
    app.post(
      `/admin/staff/:staff_user_id/${path}`,
      {
        config: { permission: 'staff' },
        schema: {
          tags: ['staff'],
          operationId,
          summary,
          description:
            `Makes a new one-time link (${purpose === 'invitation' ? 'for an invited person' : 'to set a new password'}); ` +
            'earlier unused links of the kind stop working. E-mailed with `SMTP_URL` set, else answered in ' +
            "`invitation.url`. 409 `staff_state_conflict` when the person's state does not allow it.",
          params: StaffParams,
          response: {
            200: Resource(StaffUser, { description: 'The person, with the link' }),
            ...one,
            ...problemResponses('staff_state_conflict'),
          },
        },
      },
      async (request, reply) =>
        replyWithResource(
          reply,
          staffRepresentation,
          await sendLink(
            app.db,
            writeContextOf(request),
            linksFor(request),
            request.params.staff_user_id,
            purpose,
          ),
        ),
    );
  }
};
