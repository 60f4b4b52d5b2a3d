import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.js';
import { readPageRequest } from '../../core/paging.js';
import type { Principal } from '../../core/principal.js';
import type { Role } from '../../core/roles.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { locationOf, writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses, Resource } from '../../http/vocabulary/responses.js';
import { NoContent, PagingQuery, Ref } from '../../http/vocabulary/schemas.js';
import type { ApiKey } from '../../infrastructure/api-keys/api-key.service.js';
import {
  createApiKey,
  findApiKey,
  listApiKeysAfter,
  revokeKey,
} from '../../infrastructure/api-keys/api-key.service.js';
import {
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyParams,
  ApiKeyResource,
  apiKeyRepresentation,
} from './api-key.schemas.js';

function toResource(key: ApiKey): ApiKeyResource {
  return {
    id: key.id,
    name: key.name,
    role: key.role,
    facility_ids: key.facilityIds === 'all' ? null : key.facilityIds,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}

/** Whether the caller owns every facility of a key's scope: it may then see, make and revoke that key. */
function owns(principal: Principal, facilityIds: number[] | 'all'): boolean {
  const reach = principal.grants.filter((grant) => grant.role === 'owner' || grant.role === 'admin');
  if (reach.some((grant) => grant.facilityId === null)) return true;
  return facilityIds !== 'all' && facilityIds.every((id) => reach.some((grant) => grant.facilityId === id));
}

const notFound = (id: number) =>
  new AppError('api_key_not_found', `There is no API key ${id} that you may see`);

/** API keys over HTTP, for owners: keys whose facilities they own (permission `api_keys`). */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/api-keys',
    {
      config: { permission: 'api_keys' },
      schema: {
        tags: ['api-keys'],
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description:
          'Lists the keys (revoked ones too) whose every facility the caller owns, by id. Never their secrets.',
        querystring: Type.Object({ ...PagingQuery }, { additionalProperties: false }),
        response: { 200: { ...Ref(ApiKeyList), description: 'One page of keys' }, ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'api_keys', page, apiKeyRepresentation, async (read) =>
        (
          await listApiKeysAfter(app.db, read.afterId, read.rows, (key) =>
            owns(request.principal, key.facilityIds),
          )
        ).map(toResource),
      );
    },
  );

  app.post(
    '/admin/api-keys',
    {
      config: { permission: 'api_keys' },
      schema: {
        tags: ['api-keys'],
        operationId: 'createApiKey',
        summary: 'Create an API key (its secret shown once)',
        description:
          'Creates a key with a role and a scope the caller owns (else 403). The answer holds `secret`, the key ' +
          'itself, this once: it is stored only as a hash. Audited (`api_key`).',
        body: Ref(ApiKeyCreate),
        response: {
          201: Resource(ApiKeyResource, { description: 'The key, with its secret', created: true }),
          ...problemResponses(...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const facilityIds: number[] | 'all' = request.body.facility_ids ?? 'all';
      if (!owns(request.principal, facilityIds)) {
        throw new AppError('forbidden', 'You may only make keys for facilities you own');
      }
      const input = { name: request.body.name, role: request.body.role as Role, facilityIds };
      const { secret, key } = await createApiKey(app.db, input, writeContextOf(request));
      reply.header('cache-control', 'no-store');
      return replyWithResource(
        reply,
        apiKeyRepresentation,
        { ...toResource(key), secret },
        {
          status: 201,
          location: locationOf(request, key.id),
          version: Date.parse(key.createdAt),
        },
      );
    },
  );

  app.delete(
    '/admin/api-keys/:api_key_id',
    {
      config: { permission: 'api_keys' },
      schema: {
        tags: ['api-keys'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description:
          'Revokes the key at once, on every instance; kept in the list with `revoked_at`. A key already ' +
          'revoked: 204 too. Audited.',
        params: ApiKeyParams,
        response: { 204: NoContent, ...problemResponses('api_key_not_found') },
      },
    },
    async (request, reply) => {
      const key = await findApiKey(app.db, request.params.api_key_id);
      if (!key || !owns(request.principal, key.facilityIds)) throw notFound(request.params.api_key_id);
      await revokeKey(app.db, key.id, writeContextOf(request));
      app.forgetVerifiedKeys();
      return reply.code(204).send(null);
    },
  );
};
