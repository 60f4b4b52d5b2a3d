import { Webhook } from 'standardwebhooks';
import { type Api, facility, ifMatch, type Query, type WriteOptions } from './requests.js';
import { payloadOf, type Versioned, versioned } from './results.js';
import type { Event, WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointPatch } from './schema.js';

export type EventFeedQuery = Query<'listEvents'>;
export type WebhookDeliveryListQuery = Query<'listWebhookDeliveries'>;

/** The change feed of a facility. */
export function eventOperations(api: Api) {
  return {
    /** Events after `query.after`, in commit order; with `wait`, an empty read waits (up to 30 s) for one. */
    list: async (facilityId: number, query: EventFeedQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/events', {
          params: { ...facility(facilityId), query },
        }),
      ),
  };
}

const endpoint = (facility_id: number, endpoint_id: number) => ({ path: { facility_id, endpoint_id } });

/** Webhook endpoints of a facility and their deliveries (admin keys only). */
export function webhookOperations(api: Api) {
  return {
    /** The answer holds the signing secret, shown only here. */
    create: async (facilityId: number, body: WebhookEndpointCreate) =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/webhook-endpoints', {
          params: facility(facilityId),
          body,
        }),
      ),
    list: async (facilityId: number) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/webhook-endpoints', { params: facility(facilityId) }),
      ),
    get: async (facilityId: number, endpointId: number): Promise<Versioned<WebhookEndpoint>> =>
      versioned(
        await api.GET('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}', {
          params: endpoint(facilityId, endpointId),
        }),
      ),
    update: async (
      facilityId: number,
      endpointId: number,
      body: WebhookEndpointPatch,
      write?: WriteOptions,
    ): Promise<Versioned<WebhookEndpoint>> =>
      versioned(
        await api.PATCH('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}', {
          params: { ...endpoint(facilityId, endpointId), header: ifMatch(write) },
          body,
        }),
      ),
    delete: async (facilityId: number, endpointId: number, write?: WriteOptions): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}', {
          params: { ...endpoint(facilityId, endpointId), header: ifMatch(write) },
        }),
      );
    },
    rotateSecret: async (facilityId: number, endpointId: number) =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}/rotate-secret', {
          params: endpoint(facilityId, endpointId),
        }),
      ),
    test: async (facilityId: number, endpointId: number) =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}/test', {
          params: endpoint(facilityId, endpointId),
        }),
      ),
    deliveries: async (facilityId: number, endpointId: number, query: WebhookDeliveryListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}/deliveries', {
          params: { ...endpoint(facilityId, endpointId), query },
        }),
      ),
    retryDelivery: async (facilityId: number, endpointId: number, deliveryId: number) =>
      payloadOf(
        await api.POST(
          '/admin/facilities/{facility_id}/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/retry',
          { params: { path: { facility_id: facilityId, endpoint_id: endpointId, delivery_id: deliveryId } } },
        ),
      ),
  };
}

/** What a webhook delivers: an event of the feed, or a ping from the endpoint's test. */
export type WebhookMessage =
  | Event
  | { type: 'ping'; facility_id: number; occurred_at: string; data: { endpoint_id: number } };

/**
 * Checks a delivery's signature (Standard Webhooks, with the `standardwebhooks`
 * package) and its timestamp (at most 5 minutes off), and returns the message.
 * `body` is the raw request body, exactly as received; throws when it does not verify.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  body: string | Uint8Array,
): WebhookMessage {
  const plain: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
  return new Webhook(secret).verify(text, plain) as WebhookMessage;
}
