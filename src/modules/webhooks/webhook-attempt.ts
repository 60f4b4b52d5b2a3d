import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import type { DeliveryRow } from './webhook-delivery.repository.js';
import type { EndpointRow } from './webhook-endpoint.repository.js';
import { postWebhook, type SendResult, type SendSettings } from './webhook-sender.js';
import { signatureHeader } from './webhook-signing.js';

/** What one turn of an endpoint changes of its delivery state. */
export interface EndpointState {
  cursor: number;
  /** Failed attempts in a row. */
  failures: number;
  /** Since when every attempt failed; null after a success. */
  failingSince: string | null;
  /** The receiver answered 410 Gone. */
  gone: boolean;
}

/**
 * Sends one message to the endpoint, signed by its secret and, for a day
 * after a rotation, by the previous one too (Standard Webhooks).
 */
export function sendSigned(
  settings: SendSettings & { secrets: SecretBox; now: () => Date },
  endpoint: EndpointRow,
  messageId: string,
  payload: string,
): Promise<SendResult> {
  const now = settings.now().getTime();
  const secrets = [settings.secrets.open(endpoint.secret)];
  if (
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_at &&
    Date.parse(endpoint.previous_secret_expires_at) > now
  ) {
    secrets.push(settings.secrets.open(endpoint.previous_secret));
  }
  const timestamp = Math.floor(now / 1000);
  return postWebhook(
    endpoint.url,
    {
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, messageId, timestamp, payload),
    },
    payload,
    settings,
  );
}

/**
 * A delivery after its `attempts`-th attempt: succeeded, pending with its
 * next attempt after the retry delay (±20 % jitter, so that a receiver back
 * from an outage is not hit by every retry at once), or failed when the
 * delays are used up or the receiver answered 410 Gone.
 */
export function attemptOutcome(
  settings: { retryDelaysMs: readonly number[]; now: () => Date },
  result: SendResult,
  attempts: number,
): Pick<
  DeliveryRow,
  'status' | 'attempts' | 'next_attempt_at' | 'last_attempt_at' | 'last_response_status' | 'last_error'
> {
  const now = settings.now();
  const finished = now.toISOString();
  const base = {
    attempts,
    last_attempt_at: finished,
    last_response_status: result.status ?? null,
    last_error: result.error ?? null,
  };
  if (result.error === undefined) return { ...base, status: 'succeeded', next_attempt_at: finished };
  const delay = result.status === 410 ? undefined : settings.retryDelaysMs[attempts - 1];
  if (delay === undefined) return { ...base, status: 'failed', next_attempt_at: finished };
  const next = new Date(now.getTime() + delay * (0.8 + Math.random() * 0.4)).toISOString();
  return { ...base, status: 'pending', next_attempt_at: next };
}

/** The endpoint's state after one attempt. */
export function noteOutcome(state: EndpointState, result: SendResult, now: Date): void {
  if (result.error === undefined) {
    state.failures = 0;
    state.failingSince = null;
    return;
  }
  state.failures += 1;
  state.failingSince ??= now.toISOString();
  if (result.status === 410) state.gone = true;
}
