import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './webhook.events.js';
import './webhook.problems.js';
import { webhookEndpointRoutes } from './webhook.routes.js';
import {
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from './webhook.schemas.js';
import { webhookDeliveryRoutes } from './webhook-delivery.routes.js';
import { pruneOldDeliveries } from './webhooks.job.js';

/** A facility's webhook endpoints and their deliveries. */
export const webhooksModule: ServiceModule = {
  name: 'webhooks',
  routes: [webhookEndpointRoutes, webhookDeliveryRoutes],
  schemas: [
    WebhookEndpoint,
    WebhookEndpointWithSecret,
    WebhookEndpointCreate,
    WebhookEndpointPatch,
    WebhookEndpointList,
    WebhookDelivery,
    WebhookDeliveryPage,
  ],
  jobs: (config) => [pruneOldDeliveries(config.eventsRetentionDays)],
  resourceTypes: ['webhook_endpoint', 'webhook_delivery'],
};
