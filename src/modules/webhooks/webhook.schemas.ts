import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Id, ListResponse, Nullable, Ref, StringEnum, Timestamp } from '../../http/vocabulary/schemas.js';

const endpointExample = {
  id: 3,
  facility_id: 1,
  url: 'https://doors.example.com/hooks/facility-admin',
  description: 'Access control: opens the doors to active members only',
  types: ['member.status_changed', 'member.deleted'],
  enabled: true,
  disabled_reason: null,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  format: 'uri',
  description: 'https URL that receives the events (http only with WEBHOOK_ALLOW_HTTP=true)',
});
/**
 * An event type, by reference to `EventType` (src/modules/events/): its
 * list is every module's, known once they are all loaded. A webhook
 * endpoint's JSON writes it as the string it is, whatever the list.
 */
const EventTypeRef = Type.Unsafe<string>({ $ref: 'EventType' });
const EventTypeForm = Type.String({ $id: 'EventType' });

const Types = Type.Array(EventTypeRef, {
  maxItems: 50,
  uniqueItems: true,
  description: 'Event types delivered; empty: every type',
});
const Description = Nullable(Type.String({ maxLength: 500 }));

export const WebhookEndpoint = Type.Object(
  {
    id: Id,
    facility_id: Id,
    url: Url,
    description: Description,
    types: Types,
    enabled: Type.Boolean(),
    disabled_reason: Nullable(Type.String(), {
      description: 'Why the service disabled it (410 Gone, or failures for 5 days); null otherwise',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'WebhookEndpoint',
    additionalProperties: false,
    description: "Where a facility's events are delivered, signed (Standard Webhooks)",
    examples: [endpointExample],
  },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
/** The endpoint as sent; its ETag is checked by If-Match on PATCH and DELETE. */
export const webhookEndpointRepresentation = representationOf(WebhookEndpoint, [EventTypeForm]);

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({
      pattern: '^whsec_',
      description: 'The signing secret: shown here only, at creation and rotation; keep it',
    }),
  },
  {
    $id: 'WebhookEndpointWithSecret',
    additionalProperties: false,
    description: 'A webhook endpoint with its signing secret, shown once',
    examples: [{ ...endpointExample, secret: secretExample }],
  },
);

export const WebhookEndpointCreate = Type.Object(
  {
    url: Url,
    types: Type.Optional(Types),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    $id: 'WebhookEndpointCreate',
    additionalProperties: false,
    examples: [
      { url: endpointExample.url, types: endpointExample.types, description: endpointExample.description },
    ],
  },
);
export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreate>;

export const WebhookEndpointPatch = Type.Partial(Type.Omit(WebhookEndpointCreate, []), {
  $id: 'WebhookEndpointPatch',
  additionalProperties: false,
  description: 'The fields to change; enabling an endpoint clears `disabled_reason`',
  examples: [{ enabled: true }],
});
export type WebhookEndpointPatch = Static<typeof WebhookEndpointPatch>;

export const WebhookEndpointList = Type.Object(
  { webhook_endpoints: Type.Array(Ref(WebhookEndpoint)) },
  {
    $id: 'WebhookEndpointList',
    additionalProperties: false,
    description: 'Every webhook endpoint of the facility (at most WEBHOOK_MAX_ENDPOINTS), by id',
    examples: [{ webhook_endpoints: [endpointExample] }],
  },
);

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const deliveryExample = {
  id: 981,
  endpoint_id: 3,
  event_id: 507,
  webhook_id: 'evt_507',
  type: 'member.status_changed',
  status: 'pending',
  attempts: 2,
  next_attempt_at: '2026-03-09T16:47:13.101Z',
  last_attempt_at: '2026-03-09T16:42:13.101Z',
  last_response_status: 503,
  last_error: 'answered 503',
  created_at: '2026-03-09T16:42:07.905Z',
};

export const WebhookDelivery = Type.Object(
  {
    id: Id,
    endpoint_id: Id,
    event_id: Nullable(Id, { description: 'The event delivered; null for a test ping' }),
    webhook_id: Type.String({ description: 'The webhook-id header: the same on every attempt' }),
    type: Type.String({ description: 'An event type, or `ping`' }),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        'pending (waiting for its next attempt), succeeded (a 2xx answer), failed (every attempt failed)',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    next_attempt_at: Nullable(Timestamp, { description: 'When a pending delivery is tried next' }),
    last_attempt_at: Nullable(Timestamp),
    last_response_status: Nullable(Type.Integer(), { description: 'The HTTP status of the last answer' }),
    last_error: Nullable(Type.String(), { description: 'Why the last attempt failed' }),
    created_at: Timestamp,
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One message to one endpoint, with its attempts',
    examples: [deliveryExample],
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryPage = ListResponse('deliveries', WebhookDelivery, {
  $id: 'WebhookDeliveryPage',
  examples: [{ deliveries: [deliveryExample], next_cursor: null }],
});

export const EndpointParams = Type.Object(
  { facility_id: Id, endpoint_id: Id },
  { additionalProperties: false },
);
export const DeliveryParams = Type.Object(
  { facility_id: Id, endpoint_id: Id, delivery_id: Id },
  { additionalProperties: false },
);
