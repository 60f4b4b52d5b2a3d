import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { readPageRequest } from '../../core/paging.js';
import { representationOf } from '../../core/representation.js';
import { sendPage } from '../../http/replies/page-reply.js';
import { writeContextOf } from '../../http/replies/write-request.js';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { PagingQuery, Ref } from '../../http/vocabulary/schemas.js';
import { DeliveryParams, EndpointParams, WebhookDelivery, WebhookDeliveryPage } from './webhook.schemas.js';
import { getEndpoint } from './webhook.service.js';
import { listDeliveries, toDelivery } from './webhook-delivery.repository.js';
import { queuePing, retryDelivery } from './webhook-delivery.service.js';
import './webhook.problems.js';

const ONE = '/admin/facilities/:facility_id/webhook-endpoints/:endpoint_id';
const deliveryRepresentation = representationOf(WebhookDelivery);

export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    `${ONE}/test`,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'testWebhookEndpoint',
        summary: 'Send a ping to a webhook endpoint',
        description:
          'Queues a `ping` message (`{"type": "ping", "facility_id", "occurred_at", "data": {"endpoint_id"}}`), ' +
          "signed and retried like any event, in the endpoint's own turn; follow it in the deliveries. One " +
          'ping may wait at a time: another is 429 `rate_limited` with `Retry-After`. Needs an admin key.',
        params: EndpointParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          202: { ...Ref(WebhookDelivery), description: 'The queued delivery' },
          ...problemResponses('webhook_endpoint_not_found'),
        },
      },
    },
    async (request, reply) => {
      const delivery = await queuePing(
        app.db,
        writeContextOf(request),
        request.params.facility_id,
        request.params.endpoint_id,
      );
      return reply.code(202).send(toDelivery(delivery));
    },
  );

  app.get(
    `${ONE}/deliveries`,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'List the deliveries of a webhook endpoint',
        description:
          'Deliveries by id, one page at a time, each with its status, attempts, last answer and error. ' +
          'Needs an admin key.',
        params: EndpointParams,
        querystring: Type.Object({ ...PagingQuery }, { additionalProperties: false }),
        response: {
          200: { ...Ref(WebhookDeliveryPage), description: 'One page of deliveries' },
          ...problemResponses('webhook_endpoint_not_found'),
        },
      },
    },
    async (request, reply) => {
      const endpoint = await getEndpoint(app.db, request.params.facility_id, request.params.endpoint_id);
      const page = { ...readPageRequest(request.query), maxBytes: app.pageMaxBytes };
      return sendPage(reply, 'deliveries', page, deliveryRepresentation, async (read) =>
        (await listDeliveries(app.db, endpoint.id, read)).map(toDelivery),
      );
    },
  );

  app.post(
    `${ONE}/deliveries/:delivery_id/retry`,
    {
      config: { permission: 'webhooks' },
      schema: {
        tags: ['webhooks'],
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again',
        description:
          'Sends the delivery again now, with the same `webhook-id`, whatever its status: a failed one gets ' +
          'one more attempt. Needs an admin key.',
        params: DeliveryParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          202: { ...Ref(WebhookDelivery), description: 'The delivery, due now' },
          ...problemResponses('webhook_endpoint_not_found', 'delivery_not_found'),
        },
      },
    },
    async (request, reply) => {
      const { facility_id, endpoint_id, delivery_id } = request.params;
      return reply
        .code(202)
        .send(
          toDelivery(
            await retryDelivery(app.db, writeContextOf(request), facility_id, endpoint_id, delivery_id),
          ),
        );
    },
  );
};
