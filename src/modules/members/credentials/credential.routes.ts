import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readPageRequest } from '../../../core/paging.js';
import { sendPage } from '../../../http/replies/page-reply.js';
import { locationOf, writeContextOf } from '../../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses } from '../../../http/vocabulary/responses.js';
import { NoContent, Ref } from '../../../http/vocabulary/schemas.js';
import { ignoreIdempotencyKey } from '../../../infrastructure/idempotency/idempotency.hooks.js';
import {
  Credential,
  CredentialCreate,
  CredentialListQuery,
  CredentialPage,
  CredentialParams,
  credentialRepresentation,
  MemberCredentialsParams,
} from './credential.schemas.js';
import {
  createCredential,
  listCredentialsOfMember,
  MAX_CREDENTIALS_PER_MEMBER,
  revokeCredential,
} from './credential.service.js';
import './credential.problems.js';
import '../member.problems.js';

const COLLECTION = '/admin/facilities/:facility_id/members/:member_id/credentials';

export const credentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    COLLECTION,
    {
      config: { permission: 'members.write' },
      // The answer holds the whole value, which must not rest in the idempotency store.
      onRequest: ignoreIdempotencyKey,
      schema: {
        tags: ['credentials'],
        operationId: 'createCredential',
        summary: 'Give a member a card, QR code or PIN',
        description:
          'Adds a credential. `value` is required for `card` and `pin` (4 to 12 digits); for `qr` it may be ' +
          'left out, and the service makes a random one. The answer holds the whole `value`: it is the only ' +
          'time the service shows it (it keeps a SHA-256 and the last four characters). A value held by a ' +
          'credential of the facility that is not revoked is 409 `credential_conflict`; a revoked one may ' +
          `be given again. A member has at most ${MAX_CREDENTIALS_PER_MEMBER} credentials that are not ` +
          'revoked (409 `credential_limit_reached`). A removed member is 404 `member_not_found`. ' +
          'Idempotency-Key is ignored here (the answer would keep the value): a retry of a card or PIN is ' +
          '409 `credential_conflict`.',
        params: MemberCredentialsParams,
        body: Ref(CredentialCreate),
        response: {
          201: { ...Ref(Credential), description: 'The credential, with its whole value (this once)' },
          ...problemResponses(
            'member_not_found',
            'credential_conflict',
            'credential_limit_reached',
            ...BODY_PROBLEMS,
          ),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const credential = await createCredential(
        app.db,
        writeContextOf(request),
        facility_id,
        member_id,
        request.body,
      );
      return reply.code(201).header('location', locationOf(request, credential.id)).send(credential);
    },
  );

  app.get(
    COLLECTION,
    {
      schema: {
        tags: ['credentials'],
        operationId: 'listCredentials',
        summary: "List a member's credentials (revoked ones too)",
        description:
          "Lists the member's credentials by id, one page at a time (pass `next_cursor` as `cursor`), " +
          'revoked ones too. A value is shown by its last four characters only.',
        params: MemberCredentialsParams,
        querystring: CredentialListQuery,
        response: {
          200: { ...Ref(CredentialPage), description: 'One page of credentials' },
          ...problemResponses('member_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id } = request.params;
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'credentials', page, credentialRepresentation, (read) =>
        listCredentialsOfMember(app.db, facility_id, member_id, read),
      );
    },
  );

  app.delete(
    `${COLLECTION}/:credential_id`,
    {
      config: { permission: 'members.write' },
      schema: {
        tags: ['credentials'],
        operationId: 'revokeCredential',
        summary: 'Revoke a credential',
        description:
          'Revokes a credential: it opens no door from now on (a decision answers `credential_revoked`), ' +
          'and is kept, with `revoked_at`, for the check-ins that name it; its value may be given again. ' +
          'Revoking a revoked credential changes nothing (204).',
        params: CredentialParams,
        response: {
          204: NoContent,
          ...problemResponses('member_not_found', 'credential_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, member_id, credential_id } = request.params;
      await revokeCredential(app.db, writeContextOf(request), facility_id, member_id, credential_id);
      return reply.code(204).send(null);
    },
  );
};
