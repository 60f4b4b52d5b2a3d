import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyWithResource } from '../../http/replies/resource-reply.js';
import { locationOf, writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses, Resource } from '../../http/vocabulary/responses.js';
import { FacilityParams, IfMatchHeaders, NoContent, NoQuery, Ref } from '../../http/vocabulary/schemas.js';
import { ignoreIdempotencyKey } from '../../infrastructure/idempotency/idempotency.hooks.js';
import {
  EndpointParams,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
  webhookEndpointRepresentation,
} from './webhook.schemas.js';
import {
  createEndpoint,
  endpointEtag,
  getEndpoint,
  patchEndpoint,
  removeEndpoint,
  rotateSecret,
  type WebhookSettings,
} from './webhook.service.js';
import { listEndpoints, toEndpoint } from './webhook-endpoint.repository.js';
import './webhook.problems.js';

export function webhookSettingsOf(app: {
  config: { webhookAllowHttp: boolean; webhookMaxEndpoints: number };
  secrets?: WebhookSettings['secrets'];
}): WebhookSettings {
  return {
    allowHttp: app.config.webhookAllowHttp,
    maxEndpoints: app.config.webhookMaxEndpoints,
    secrets: app.secrets,
  };
}

const COLLECTION = '/admin/facilities/:facility_id/webhook-endpoints';
const ONE = `${COLLECTION}/:endpoint_id`;

export const webhookEndpointRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = webhookSettingsOf(app);

  app.post(
    COLLECTION,
    {
      config: { permission: 'webhooks' },
      onRequest: ignoreIdempotencyKey,
      schema: {
        tags: ['webhooks'],
        operationId: 'createWebhookEndpoint',
        summary: 'Add a webhook endpoint',
        description:
          "Adds an endpoint that receives the facility's events of `types` (all when empty), signed by the " +
          'Standard Webhooks scheme with the `secret` answered here and never again. The URL must be https ' +
          '(422 `invalid_webhook_url`; http only with WEBHOOK_ALLOW_HTTP=true); at most WEBHOOK_MAX_ENDPOINTS ' +
          'per facility (409 `webhook_endpoint_limit`). Needs an admin key. Idempotency-Key is ignored here.',
        params: FacilityParams,
        body: Ref(WebhookEndpointCreate),
        response: {
          201: Resource(WebhookEndpointWithSecret, {
            description: 'The endpoint, with its secret (shown once)',
          }),
          ...problemResponses('invalid_webhook_url', 'webhook_endpoint_limit', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint(
        app.db,
        settings,
        writeContextOf(request),
        request.params.facility_id,
        request.body,
      );
      reply
        .code(201)
        .header('location', locationOf(request, endpoint.id))
        .header('etag', endpointEtag(endpoint));
      return { ...toEndpoint(endpoint), secret };
    },
  );

  app.get(
    COLLECTION,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookEndpoints',
        summary: 'List the webhook endpoints of a facility',
        description: 'Every endpoint of the facility, by id, without secrets. Needs an admin key.',
        params: FacilityParams,
        querystring: NoQuery,
        response: {
          200: { ...Ref(WebhookEndpointList), description: 'The endpoints' },
          ...problemResponses(),
        },
      },
    },
    async (request) => ({
      webhook_endpoints: (await listEndpoints(app.db, request.params.facility_id)).map(toEndpoint),
    }),
  );

  app.get(
    ONE,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'getWebhookEndpoint',
        summary: 'Get one webhook endpoint',
        description:
          'The endpoint, without its secret; `disabled_reason` says why the service disabled it. Needs an admin key.',
        params: EndpointParams,
        querystring: NoQuery,
        response: {
          200: Resource(WebhookEndpoint, { description: 'The endpoint' }),
          ...problemResponses('webhook_endpoint_not_found'),
        },
      },
    },
    async (request, reply) =>
      replyWithResource(
        reply,
        webhookEndpointRepresentation,
        toEndpoint(await getEndpoint(app.db, request.params.facility_id, request.params.endpoint_id)),
      ),
  );

  app.patch(
    ONE,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description:
          'Changes the fields sent. `enabled: true` re-enables an endpoint the service disabled (clearing ' +
          '`disabled_reason`); its pending deliveries are then sent. With `If-Match`, only if the endpoint ' +
          'is unchanged since read (else 412 `precondition_failed`). Needs an admin key.',
        params: EndpointParams,
        headers: IfMatchHeaders,
        body: Ref(WebhookEndpointPatch),
        response: {
          200: Resource(WebhookEndpoint, { description: 'The endpoint after the change' }),
          ...problemResponses(
            'webhook_endpoint_not_found',
            'invalid_webhook_url',
            'precondition_failed',
            ...BODY_PROBLEMS,
          ),
        },
      },
    },
    async (request, reply) => {
      const endpoint = await patchEndpoint(
        app.db,
        settings,
        writeContextOf(request),
        request.params.facility_id,
        request.params.endpoint_id,
        request.body,
      );
      return replyWithResource(reply, webhookEndpointRepresentation, toEndpoint(endpoint));
    },
  );

  app.delete(
    ONE,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteWebhookEndpoint',
        summary: 'Remove a webhook endpoint',
        description:
          'Removes the endpoint and its deliveries, sent or not. With `If-Match`, only if the endpoint is ' +
          'unchanged since read (else 412 `precondition_failed`). Needs an admin key.',
        params: EndpointParams,
        headers: IfMatchHeaders,
        querystring: NoQuery,
        response: {
          204: NoContent,
          ...problemResponses('webhook_endpoint_not_found', 'precondition_failed'),
        },
      },
    },
    async (request, reply) => {
      await removeEndpoint(
        app.db,
        writeContextOf(request),
        request.params.facility_id,
        request.params.endpoint_id,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${ONE}/rotate-secret`,
    {
      config: { permission: 'webhooks' },
      onRequest: ignoreIdempotencyKey,
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateWebhookSecret',
        summary: 'Give a webhook endpoint a new signing secret',
        description:
          'Answers a new secret, shown only here. For 24 hours deliveries carry signatures by both the new and ' +
          'the previous secret, so the receiver can switch over. Needs an admin key.',
        params: EndpointParams,
        querystring: NoQuery,
        response: {
          200: Resource(WebhookEndpointWithSecret, { description: 'The endpoint with its new secret' }),
          ...problemResponses('webhook_endpoint_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await rotateSecret(
        app.db,
        settings,
        writeContextOf(request),
        request.params.facility_id,
        request.params.endpoint_id,
      );
      reply.header('etag', endpointEtag(endpoint));
      return { ...toEndpoint(endpoint), secret };
    },
  );
};
