import { AppError } from '../../core/errors.js';
import { etagOf } from '../../core/etag.js';
import { systemWriteContext, type WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { type WriteTarget, write, writeExisting } from '../../journal/write-path.js';
import { newestEventIdOf } from './endpoint-queue.repository.js';
import {
  type WebhookEndpointCreate,
  type WebhookEndpointPatch,
  webhookEndpointRepresentation,
} from './webhook.schemas.js';
import { journalEndpoint, updateJournaled } from './webhook-endpoint.journal.js';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  findEndpoint,
  findEndpointForUpdate,
  insertEndpoint,
} from './webhook-endpoint.repository.js';
import { assertWebhookUrl, secretsOf, type WebhookSettings } from './webhook-settings.js';
import { newSigningSecret } from './webhook-signing.js';
import './webhook.problems.js';
import './webhook.events.js';

export type { WebhookSettings };

/** How long a rotated-out secret still signs. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

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

function found(endpoint: EndpointRow | undefined, facilityId: number, endpointId: number): EndpointRow {
  if (!endpoint) throw endpointNotFound(facilityId, endpointId);
  return endpoint;
}

function endpointNotFound(facilityId: number, endpointId: number): AppError {
  return new AppError(
    'webhook_endpoint_not_found',
    `Facility ${facilityId} has no webhook endpoint ${endpointId}`,
  );
}

/** The endpoint a write changes: locked, 404 webhook_endpoint_not_found, If-Match against its representation. */
function endpointTarget(facilityId: number, endpointId: number): WriteTarget<EndpointRow> {
  return {
    lock: (trx) => findEndpointForUpdate(trx, facilityId, endpointId),
    notFound: () => endpointNotFound(facilityId, endpointId),
    etag: endpointEtag,
  };
}

export async function createEndpoint(
  db: Db,
  settings: WebhookSettings,
  context: WriteContext,
  facilityId: number,
  body: WebhookEndpointCreate,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const secrets = secretsOf(settings);
  assertWebhookUrl(body.url, settings);
  const secret = newSigningSecret();
  // Not writeNew: these POSTs ignore Idempotency-Key (an answer holding the secret is never stored).
  return write(db, context, async ({ trx }) => {
    if ((await countEndpoints(trx, facilityId)) >= settings.maxEndpoints) {
      throw new AppError(
        'webhook_endpoint_limit',
        `Facility ${facilityId} already has its maximum of ${settings.maxEndpoints} webhook endpoints (WEBHOOK_MAX_ENDPOINTS)`,
      );
    }
    const now = context.now.toISOString();
    const endpoint = await insertEndpoint(trx, {
      facility_id: facilityId,
      url: body.url,
      description: body.description ?? null,
      types: JSON.stringify(body.types ?? []),
      enabled: body.enabled === false ? 0 : 1,
      secret: secrets.seal(secret),
      // It receives the events that come after it.
      cursor: await newestEventIdOf(trx, facilityId),
      created_at: now,
      updated_at: now,
    });
    journalEndpoint(trx, context, 'create', null, endpoint);
    return { endpoint, secret };
  });
}

export async function patchEndpoint(
  db: Db,
  settings: WebhookSettings,
  context: WriteContext,
  facilityId: number,
  endpointId: number,
  patch: WebhookEndpointPatch,
): Promise<EndpointRow> {
  if (patch.url !== undefined) assertWebhookUrl(patch.url, settings);
  return writeExisting(db, context, endpointTarget(facilityId, endpointId), async ({ trx }, current) => {
    const enabling = patch.enabled === true && current.enabled === 0;
    return updateJournaled(trx, context, current, {
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.types !== undefined ? { types: JSON.stringify(patch.types) } : {}),
      ...(patch.enabled !== undefined
        ? {
            enabled: patch.enabled ? 1 : 0,
            disabled_reason: null,
            failing_since: null,
            consecutive_failures: 0,
          }
        : {}),
      // Events of the time it was off are not sent; its pending deliveries are.
      ...(enabling ? { cursor: await newestEventIdOf(trx, facilityId) } : {}),
    });
  });
}

export async function removeEndpoint(
  db: Db,
  context: WriteContext,
  facilityId: number,
  endpointId: number,
): Promise<void> {
  await writeExisting(db, context, endpointTarget(facilityId, endpointId), async ({ trx }, endpoint) => {
    await deleteEndpoint(trx, endpoint.id);
    journalEndpoint(trx, context, 'delete', endpoint, null);
  });
}

/** A new secret; the one it replaces keeps signing for 24 hours, so receivers can switch over. */
export async function rotateSecret(
  db: Db,
  settings: WebhookSettings,
  context: WriteContext,
  facilityId: number,
  endpointId: number,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const secrets = secretsOf(settings);
  const secret = newSigningSecret();
  const rotation = { ...context, ifMatch: undefined };
  return writeExisting(db, rotation, endpointTarget(facilityId, endpointId), async ({ trx }, current) => {
    const now = context.now.getTime();
    const endpoint = await updateJournaled(
      trx,
      rotation,
      current,
      {
        secret: secrets.seal(secret),
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now + PREVIOUS_SECRET_VALID_MS).toISOString(),
      },
      { rotation: true },
    );
    return { endpoint, secret };
  });
}

/**
 * The service disables an endpoint that answered 410 Gone or whose every
 * attempt failed for DISABLE_AFTER_FAILING_MS: journaled with actor
 * `system` and the event `webhook_endpoint.disabled`.
 */
export async function disableFailingEndpoint(
  db: Db,
  facilityId: number,
  endpointId: number,
  reason: string,
  now: Date,
): Promise<void> {
  await write(db, systemWriteContext(now), async ({ trx, context }) => {
    const current = await findEndpointForUpdate(trx, facilityId, endpointId);
    if (!current || current.enabled === 0) return;
    await updateJournaled(
      trx,
      context,
      current,
      { enabled: 0, disabled_reason: reason },
      { eventType: 'webhook_endpoint.disabled' },
    );
  });
}
