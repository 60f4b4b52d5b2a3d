import { AppError } from '../../core/errors.js';
import { assertIfMatch, etagOf, writeTimeAfter } from '../../core/etag.js';
import type { Db, Executor } from '../../db/database.js';
import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import {
  type WebhookEndpointCreate,
  type WebhookEndpointPatch,
  webhookEndpointRepresentation,
} from './webhook.schemas.js';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  findEndpoint,
  findEndpointForUpdate,
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
  return found(await findEndpoint(db, facilityId, endpointId), facilityId, endpointId);
}

/** The endpoint's ETag: its representation's revision and its `updated_at`. */
export function endpointEtag(endpoint: Pick<EndpointRow, 'updated_at'>): string {
  return etagOf(webhookEndpointRepresentation, endpoint.updated_at);
}

/** The endpoint a write changes, locked, and checked against the request's If-Match. */
async function endpointToWrite(
  trx: Executor,
  facilityId: number,
  endpointId: number,
  ifMatch: string | undefined,
): Promise<EndpointRow> {
  const endpoint = await findEndpointForUpdate(trx, facilityId, endpointId);
  if (!endpoint && ifMatch !== undefined) assertIfMatch(ifMatch, undefined);
  const current = found(endpoint, facilityId, endpointId);
  assertIfMatch(ifMatch, endpointEtag(current));
  return current;
}

function found(endpoint: EndpointRow | undefined, facilityId: number, endpointId: number): EndpointRow {
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
  ifMatch?: string,
): Promise<EndpointRow> {
  if (patch.url !== undefined) assertWebhookUrl(patch.url, settings);
  return db.transaction().execute(async (trx) => {
    const current = await endpointToWrite(trx, facilityId, endpointId, ifMatch);
    return updateEndpoint(trx, current.id, {
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.types !== undefined ? { types: JSON.stringify(patch.types) } : {}),
      ...(patch.enabled !== undefined
        ? { enabled: patch.enabled ? 1 : 0, disabled_reason: null, failing_since: null }
        : {}),
      updated_at: writeTimeAfter(current.updated_at),
    });
  });
}

export async function removeEndpoint(
  db: Db,
  facilityId: number,
  endpointId: number,
  ifMatch?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const endpoint = await endpointToWrite(trx, facilityId, endpointId, ifMatch);
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
    const current = await endpointToWrite(trx, facilityId, endpointId, undefined);
    const now = Date.now();
    const endpoint = await updateEndpoint(trx, current.id, {
      secret: secrets.seal(secret),
      previous_secret: current.secret,
      previous_secret_expires_at: new Date(now + PREVIOUS_SECRET_VALID_MS).toISOString(),
      updated_at: writeTimeAfter(current.updated_at, now),
    });
    return { endpoint, secret };
  });
}
