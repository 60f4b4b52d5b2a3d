import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, IDEMPOTENCY_PROBLEMS, problemResponses } from '../../http/vocabulary/responses.js';
import { FacilityParams, Ref } from '../../http/vocabulary/schemas.js';
import { IdempotencyHeaders } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  AccessDecision,
  AccessDecisionRequest,
  accessDecisionRepresentation,
} from './access-decision.schemas.js';
import { decideAccess, type StoreAnswer } from './access-decision.service.js';

export const accessDecisionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admin/facilities/:facility_id/access-decisions',
    {
      config: { permission: 'access' },
      schema: {
        tags: ['access'],
        operationId: 'decideAccess',
        summary: 'Decide whether to let someone in (and record it)',
        description:
          'A door controller sends the `credential` it read; the front desk sends a `member_id`. The answer ' +
          'is 200 whatever the decision: `allow` or `deny` with every failed rule in `reasons` (docs/access.md ' +
          'lists them, in order), the member, their entitlements and balances. An unknown credential, or one ' +
          'of another facility, is a `deny` with `credential_unknown`, not 404. Unless `dry_run`, the decision ' +
          "is recorded as a check-in (`check_in`), an allowed one sets the member's `last_check_in_at`, and " +
          'the feed gets `access.allowed` or `access.denied`. `at` is only for dry runs. An `Idempotency-Key` ' +
          'makes a retry get the same answer and record one check-in.',
        params: FacilityParams,
        headers: IdempotencyHeaders,
        body: Ref(AccessDecisionRequest),
        response: {
          200: { ...Ref(AccessDecision), description: 'The decision' },
          ...problemResponses('member_not_found', ...IDEMPOTENCY_PROBLEMS, ...BODY_PROBLEMS),
        },
      },
    },
    async (request) => {
      const claim = request.idempotency;
      const storeAnswer: StoreAnswer | undefined = claim
        ? (trx, answer) =>
            claim.store(trx, {
              status: 200,
              body: accessDecisionRepresentation(answer),
              location: null,
              etag: null,
            })
        : undefined;
      return decideAccess(
        app.db,
        writeContextOf(request),
        request.params.facility_id,
        request.body,
        storeAnswer,
      );
    },
  );
};
