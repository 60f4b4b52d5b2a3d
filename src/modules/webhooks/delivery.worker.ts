import type { FastifyBaseLogger } from 'fastify';
import { writeTimeAfter } from '../../core/etag.js';
import type { Db } from '../../db/database.js';
import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import { claimDueDeliveries, type DeliveryRow, finishAttempt } from './webhook-delivery.repository.js';
import { findEndpointById, updateEndpoint } from './webhook-endpoint.repository.js';
import { postWebhook, type SendSettings } from './webhook-sender.js';
import { signatureHeader } from './webhook-signing.js';

/** After the first attempt (at once): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map(
  (s) => s * 1000,
);
/** An endpoint whose every delivery failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;

export interface DeliveryWorkerSettings extends SendSettings {
  pollIntervalMs: number;
  concurrency: number;
  retryDelaysMs: readonly number[];
  secrets: SecretBox;
}

export interface DeliveryWorker {
  stop(): Promise<void>;
}

/**
 * Sends due deliveries: every `pollIntervalMs` it claims as many as it has
 * room for (`concurrency`), under a lease longer than a send can take, and
 * records each outcome. At least once: a process that dies after sending and
 * before recording leaves the delivery to be sent again, with the same
 * webhook-id, once its lease ends. Several processes share the work.
 */
export function startDeliveryWorker(
  db: Db,
  settings: DeliveryWorkerSettings,
  log: FastifyBaseLogger,
): DeliveryWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  // Longer than a send may take (timeoutMs) and its outcome takes to record.
  const leaseMs = settings.timeoutMs + 5000;

  const tick = async () => {
    timer = undefined;
    try {
      const room = settings.concurrency - inFlight.size;
      if (room > 0 && !stopped) {
        const now = Date.now();
        const claimed = await claimDueDeliveries(
          db,
          new Date(now).toISOString(),
          new Date(now + leaseMs).toISOString(),
          room,
        );
        for (const delivery of claimed) {
          const sending = deliver(db, settings, delivery, log).catch((error) =>
            log.error(
              { err: error, delivery: delivery.id },
              'webhook delivery: could not record its outcome',
            ),
          );
          inFlight.add(sending);
          sending.finally(() => inFlight.delete(sending));
        }
      }
    } catch (error) {
      log.warn({ err: error }, 'webhook delivery: could not claim due deliveries');
    }
    if (!stopped) timer = setTimeout(tick, settings.pollIntervalMs).unref();
  };
  timer = setTimeout(tick, 0).unref();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

async function deliver(
  db: Db,
  settings: DeliveryWorkerSettings,
  delivery: DeliveryRow,
  log: FastifyBaseLogger,
) {
  const endpoint = await findEndpointById(db, delivery.endpoint_id);
  if (!endpoint) return;
  const now = Date.now();
  const secrets = [settings.secrets.open(endpoint.secret)];
  if (
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_at &&
    Date.parse(endpoint.previous_secret_expires_at) > now
  ) {
    secrets.push(settings.secrets.open(endpoint.previous_secret));
  }
  const timestamp = Math.floor(now / 1000);
  const result = await postWebhook(
    endpoint.url,
    {
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, delivery.message_id, timestamp, delivery.payload),
    },
    delivery.payload,
    settings,
  );
  const finished = new Date().toISOString();
  if (result.error === undefined) {
    await finishAttempt(db, delivery.id, {
      status: 'succeeded',
      next_attempt_at: finished,
      last_response_status: result.status ?? null,
      last_error: null,
    });
    if (endpoint.failing_since !== null) await updateEndpoint(db, endpoint.id, { failing_since: null });
    return;
  }
  const gone = result.status === 410;
  const delay = settings.retryDelaysMs[delivery.attempts - 1];
  const retry = !gone && delay !== undefined;
  // ±20 % jitter, so that a receiver back from an outage is not hit by every retry at once.
  const next = retry ? new Date(Date.now() + delay * (0.8 + Math.random() * 0.4)).toISOString() : finished;
  await finishAttempt(db, delivery.id, {
    status: retry ? 'pending' : 'failed',
    next_attempt_at: next,
    last_response_status: result.status ?? null,
    last_error: result.error,
  });
  const failingSince = endpoint.failing_since ?? finished;
  let disabledReason: string | null = null;
  if (gone) disabledReason = `The receiver answered 410 Gone on ${finished}`;
  else if (Date.parse(finished) - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
    disabledReason = `Every delivery failed from ${failingSince} to ${finished}`;
  }
  if (disabledReason !== null) {
    log.warn({ endpoint: endpoint.id, reason: disabledReason }, 'webhook endpoint disabled');
    await updateEndpoint(db, endpoint.id, {
      enabled: 0,
      disabled_reason: disabledReason,
      failing_since: failingSince,
      // It shows differently now: a new version, so a client's If-Match made before no longer holds.
      updated_at: writeTimeAfter(endpoint.updated_at),
    });
  } else if (endpoint.failing_since === null) {
    await updateEndpoint(db, endpoint.id, { failing_since: failingSince });
  }
}
