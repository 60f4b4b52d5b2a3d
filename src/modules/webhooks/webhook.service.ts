import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import type { RecordedEvent } from '../events/event.service.js';
import type { WebhookEndpointCreate, WebhookEndpointPatch } from './webhook.schemas.js';
import {
  type DeliveryRow,
  findDelivery,
  insertDeliveries,
  scheduleNow,
} from './webhook-delivery.repository.js';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  enabledEndpointsOf,
  findEndpoint,
  insertEndpoint,
  updateEndpoint,
} from './webhook-endpoint.repository.js';
import { newSigningSecret } from './webhook-signing.js';

export interface WebhookSettings {
  allowHttp: boolean;
  maxEndpoints: number;
  /** Undefined: no secrets key (PostgreSQL without SECRETS_KEY), so no webhooks. */
  secrets: SecretBox | undefined;
}

/** How long a rotated-out secret still signs. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/**
 * Writes one delivery per enabled endpoint of the facility that takes the
 * event's type, in the event's own transaction: an event that commits is
 * delivered, and a write that rolls back sends nothing.
 */
export async function queueWebhookDeliveries(trx: Executor, event: RecordedEvent): Promise<void> {
  const endpoints = await enabledEndpointsOf(trx, event.facility_id);
  if (endpoints.length === 0) return;
  const now = new Date().toISOString();
  const wanted = endpoints.filter((endpoint) => {
    const types = JSON.parse(endpoint.types) as string[];
    return types.length === 0 || types.includes(event.type);
  });
  await insertDeliveries(
    trx,
    wanted.map((endpoint) => ({
      endpoint_id: endpoint.id,
      event_id: event.id,
      message_id: `evt_${event.id}`,
      type: event.type,
      resource: event.resource,
      payload: event.json,
      next_attempt_at: now,
      created_at: now,
    })),
  );
}

function secretsOf(settings: WebhookSettings): SecretBox {
  if (!settings.secrets) {
    throw new AppError(
      'service_unavailable',
      'Webhooks need SECRETS_KEY on PostgreSQL: the operator has not set it',
    );
  }
  return settings.secrets;
}

export function assertWebhookUrl(url: string, settings: WebhookSettings): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_webhook_url', `"${url}" is not a URL`);
  }
  const allowed = settings.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) {
    throw new AppError(
      'invalid_webhook_url',
      `A webhook URL must use ${allowed.join(' or ').replace(/:/g, '')}`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new AppError('invalid_webhook_url', 'A webhook URL must not hold a user name or password');
  }
}

export async function getEndpoint(
  db: Executor,
  facilityId: number,
  endpointId: number,
): Promise<EndpointRow> {
  const endpoint = await findEndpoint(db, facilityId, endpointId);
  if (!endpoint) {
    throw new AppError(
      'webhook_endpoint_not_found',
      `Facility ${facilityId} has no webhook endpoint ${endpointId}`,
    );
  }
  return endpoint;
}

export async function createEndpoint(
  db: Db,
  settings: WebhookSettings,
  facilityId: number,
  body: WebhookEndpointCreate,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const secrets = secretsOf(settings);
  assertWebhookUrl(body.url, settings);
  const secret = newSigningSecret();
  return db.transaction().execute(async (trx) => {
    if ((await countEndpoints(trx, facilityId)) >= settings.maxEndpoints) {
      throw new AppError(
        'webhook_endpoint_limit',
        `Facility ${facilityId} already has its maximum of ${settings.maxEndpoints} webhook endpoints`,
      );
    }
    const now = new Date().toISOString();
    const endpoint = await insertEndpoint(trx, {
      facility_id: facilityId,
      url: body.url,
      description: body.description ?? null,
      types: JSON.stringify(body.types ?? []),
      enabled: body.enabled === false ? 0 : 1,
      secret: secrets.seal(secret),
      created_at: now,
      updated_at: now,
    });
    return { endpoint, secret };
  });
}

export async function patchEndpoint(
  db: Db,
  settings: WebhookSettings,
  facilityId: number,
  endpointId: number,
  patch: WebhookEndpointPatch,
): Promise<EndpointRow> {
  if (patch.url !== undefined) assertWebhookUrl(patch.url, settings);
  return db.transaction().execute(async (trx) => {
    const current = await getEndpoint(trx, facilityId, endpointId);
    return updateEndpoint(trx, current.id, {
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.types !== undefined ? { types: JSON.stringify(patch.types) } : {}),
      ...(patch.enabled !== undefined
        ? { enabled: patch.enabled ? 1 : 0, disabled_reason: null, failing_since: null }
        : {}),
      updated_at: new Date().toISOString(),
    });
  });
}

export async function removeEndpoint(db: Db, facilityId: number, endpointId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const endpoint = await getEndpoint(trx, facilityId, endpointId);
    await deleteEndpoint(trx, endpoint.id);
  });
}

/** A new secret; the one it replaces keeps signing for 24 hours, so receivers can switch over. */
export async function rotateSecret(
  db: Db,
  settings: WebhookSettings,
  facilityId: number,
  endpointId: number,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const secrets = secretsOf(settings);
  const secret = newSigningSecret();
  return db.transaction().execute(async (trx) => {
    const current = await getEndpoint(trx, facilityId, endpointId);
    const now = Date.now();
    const endpoint = await updateEndpoint(trx, current.id, {
      secret: secrets.seal(secret),
      previous_secret: current.secret,
      previous_secret_expires_at: new Date(now + PREVIOUS_SECRET_VALID_MS).toISOString(),
      updated_at: new Date(now).toISOString(),
    });
    return { endpoint, secret };
  });
}

/** Queues a `ping` to the endpoint, delivered like any event (enabled endpoints only). */
export async function queuePing(db: Db, facilityId: number, endpointId: number): Promise<DeliveryRow> {
  return db.transaction().execute(async (trx) => {
    const endpoint = await getEndpoint(trx, facilityId, endpointId);
    const now = new Date().toISOString();
    const messageId = `ping_${endpoint.id}_${Date.now().toString(36)}`;
    const payload = JSON.stringify({
      type: 'ping',
      facility_id: facilityId,
      occurred_at: now,
      data: { endpoint_id: endpoint.id },
    });
    const [delivery] = await insertDeliveries(trx, [
      {
        endpoint_id: endpoint.id,
        event_id: null,
        message_id: messageId,
        type: 'ping',
        resource: messageId,
        payload,
        next_attempt_at: now,
        created_at: now,
      },
    ]);
    return delivery;
  });
}

/** Sends one delivery again, now, with the same webhook-id. */
export async function retryDelivery(
  db: Db,
  facilityId: number,
  endpointId: number,
  deliveryId: number,
): Promise<DeliveryRow> {
  return db.transaction().execute(async (trx) => {
    const endpoint = await getEndpoint(trx, facilityId, endpointId);
    const delivery = await findDelivery(trx, endpoint.id, deliveryId);
    if (!delivery) {
      throw new AppError(
        'delivery_not_found',
        `Webhook endpoint ${endpointId} has no delivery ${deliveryId}`,
      );
    }
    return scheduleNow(trx, delivery.id, new Date().toISOString());
  });
}
