import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../core/paging.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { writeContextOf } from '../../http/replies/write-request.js';
import { IDEMPOTENCY_PROBLEMS, problemResponses } from '../../http/vocabulary/responses.js';
import { FacilityParams, NoQuery, Ref } from '../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  CheckIn,
  CheckInListQuery,
  CheckInPage,
  CheckInParams,
  checkInRepresentation,
  Occupancy,
} from './check-in.schemas.js';
import { checkOut, listCheckInsPage, readOccupancy } from './check-in.service.js';

const COLLECTION = '/admin/facilities/:facility_id/check-ins';

export const checkInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    COLLECTION,
    {
      schema: {
        tags: ['access'],
        operationId: 'listCheckIns',
        summary: "List the facility's check-ins (allowed and denied)",
        description:
          'Lists every recorded access decision by id, one page at a time (pass `next_cursor` as `cursor`), ' +
          "optionally only one member's, only `allow` or `deny`, and only those from `since` (included) " +
          'until `until` (excluded). Dry runs are not recorded.',
        params: FacilityParams,
        querystring: CheckInListQuery,
        response: {
          200: { ...Ref(CheckInPage), description: 'One page of check-ins' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const { facility_id } = request.params;
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'check_ins', page, checkInRepresentation, (read) =>
        listCheckInsPage(app.db, facility_id, request.query, read),
      );
    },
  );

  app.post(
    `${COLLECTION}/:check_in_id/check-out`,
    {
      config: { permission: 'access' },
      schema: {
        tags: ['access'],
        operationId: 'checkOut',
        summary: 'Check a member out',
        description:
          'Sets `checked_out_at`: the member (and their guests) no longer count toward the occupancy, and ' +
          'anti-passback no longer holds them back. Checking out again changes nothing (200, as it was). A ' +
          'denied check-in let nobody in: 409 `check_in_denied`. Event `check_in.checked_out`.',
        params: CheckInParams,
        headers: IdempotencyHeaders,
        response: {
          200: { ...Ref(CheckIn), description: 'The check-in, checked out' },
          ...problemResponses('check_in_not_found', 'check_in_denied', ...IDEMPOTENCY_PROBLEMS),
        },
      },
    },
    async (request) => {
      const { facility_id, check_in_id } = request.params;
      return checkOut(app.db, writeContextOf(request), facility_id, check_in_id);
    },
  );

  app.get(
    '/admin/facilities/:facility_id/occupancy',
    {
      schema: {
        tags: ['access'],
        operationId: 'getOccupancy',
        summary: 'How many people are in the facility now',
        description:
          "Counts the allowed check-ins not checked out and younger than the policy's " +
          '`occupancy_cutoff_minutes` (members who leave without checking out stop counting then), and ' +
          'the guests they brought. Access decisions compare `total` with `max_occupancy`.',
        params: FacilityParams,
        querystring: NoQuery,
        response: { 200: { ...Ref(Occupancy), description: 'Who is in now' }, ...problemResponses() },
      },
    },
    async (request) => readOccupancy(app.db, request.params.facility_id, app.now()),
  );
};
