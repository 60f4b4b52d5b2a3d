import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import { eventJson } from '../../journal/event-json.js';
import { eventsAfter, type QueuedEvent } from './endpoint-queue.repository.js';
import { disableFailingEndpoint } from './webhook.service.js';
import { attemptOutcome, type EndpointState, noteOutcome, sendSigned } from './webhook-attempt.js';
import {
  type DeliveryRow,
  type DueDelivery,
  findDueDeliveries,
  finishAttempt,
  insertDelivery,
  pendingResourcesOf,
} from './webhook-delivery.repository.js';
import { type EndpointRow, updateEndpoint } from './webhook-endpoint.repository.js';
import type { SendResult, SendSettings } from './webhook-sender.js';

/** An endpoint whose every attempt failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** Failed attempts in a row after which an endpoint's new events wait until one of its retries succeeds. */
export const FAILURES_THAT_HOLD_NEW_EVENTS = 5;
/** Messages one turn of an endpoint sends at most before other endpoints get theirs. */
export const MESSAGES_PER_TURN = 20;

export interface EndpointDeliverySettings extends SendSettings {
  retryDelaysMs: readonly number[];
  secrets: SecretBox;
  now: Clock;
  /** True once the worker stops: a turn ends after the message it is sending. */
  stopping?: () => boolean;
}

/**
 * The lease of an endpoint's turn: longer than one message may take to send
 * and record. It is renewed with every message recorded, so a turn holds the
 * endpoint as long as it works and a dead process's turn ends soon.
 */
export function leaseEnd(settings: Pick<EndpointDeliverySettings, 'timeoutMs' | 'now'>): string {
  return new Date(settings.now().getTime() + settings.timeoutMs + 5000).toISOString();
}

/**
 * One turn of one endpoint, by the process that holds its lease: its due
 * retries first, then (unless failures in a row hold them back) the events
 * after its cursor, one message at a time in feed order, so a receiver that
 * never answers costs this endpoint's turn and no other's. A failed message
 * is kept as a pending delivery with its next attempt, and later events of
 * its resource wait behind it. Ends by releasing the lease.
 */
export async function serveEndpoint(
  db: Db,
  settings: EndpointDeliverySettings,
  endpoint: EndpointRow,
  log: FastifyBaseLogger,
): Promise<void> {
  const state: EndpointState = {
    cursor: endpoint.cursor,
    failures: endpoint.consecutive_failures,
    failingSince: endpoint.failing_since,
    gone: false,
  };
  const send = (messageId: string, payload: string) => sendSigned(settings, endpoint, messageId, payload);
  try {
    const due = await findDueDeliveries(db, endpoint.id, settings.now().toISOString(), MESSAGES_PER_TURN);
    for (const delivery of due) {
      if (state.gone || settings.stopping?.()) break;
      const payload = messageOf(delivery);
      const result =
        payload === undefined
          ? { error: 'the event is no longer kept' }
          : await send(delivery.message_id, payload);
      await finishAttempt(db, delivery.id, attemptOutcome(settings, result, delivery.attempts + 1));
      await updateEndpoint(db, endpoint.id, { locked_until: leaseEnd(settings) });
      noteOutcome(state, result, settings.now());
    }
    if (!state.gone && !settings.stopping?.() && state.failures < FAILURES_THAT_HOLD_NEW_EVENTS) {
      await deliverNewEvents(db, settings, endpoint, state, send);
    }
  } finally {
    await updateEndpoint(db, endpoint.id, {
      cursor: state.cursor,
      consecutive_failures: state.failures,
      failing_since: state.failingSince,
      locked_until: null,
    });
  }
  const now = settings.now();
  const failingFor = state.failingSince === null ? 0 : now.getTime() - Date.parse(state.failingSince);
  if (state.gone || failingFor >= DISABLE_AFTER_FAILING_MS) {
    const reason = state.gone
      ? `The receiver answered 410 Gone on ${now.toISOString()}`
      : `Every delivery failed from ${state.failingSince} to ${now.toISOString()}`;
    log.warn({ endpoint: endpoint.id, reason }, 'webhook endpoint disabled');
    await disableFailingEndpoint(db, endpoint.facility_id, endpoint.id, reason, now);
  }
}

async function deliverNewEvents(
  db: Db,
  settings: EndpointDeliverySettings,
  endpoint: EndpointRow,
  state: EndpointState,
  send: (messageId: string, payload: string) => Promise<SendResult>,
): Promise<void> {
  const wanted = JSON.parse(endpoint.types) as string[];
  const waiting = await pendingResourcesOf(db, endpoint.id);
  for (const event of await eventsAfter(db, endpoint.facility_id, state.cursor, MESSAGES_PER_TURN)) {
    if (state.gone || settings.stopping?.() || state.failures >= FAILURES_THAT_HOLD_NEW_EVENTS) return;
    state.cursor = event.id;
    if (wanted.length > 0 && !wanted.includes(event.type)) continue;
    const now = settings.now().toISOString();
    if (waiting.has(event.resource)) {
      // Behind an earlier message of its resource: kept, and sent once that one is done.
      await recordDelivery(db, settings, endpoint, event, {
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
      });
      continue;
    }
    const result = await send(`evt_${event.id}`, eventJson(event));
    const outcome = attemptOutcome(settings, result, 1);
    await recordDelivery(db, settings, endpoint, event, outcome);
    if (outcome.status === 'pending') waiting.add(event.resource);
    noteOutcome(state, result, settings.now());
  }
}

/** Logs one message to the endpoint and moves its cursor past the event, together; renews the lease. */
async function recordDelivery(
  db: Db,
  settings: EndpointDeliverySettings,
  endpoint: EndpointRow,
  event: QueuedEvent,
  outcome: Partial<DeliveryRow> & Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at'>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertDelivery(trx, {
      endpoint_id: endpoint.id,
      event_id: event.id,
      message_id: `evt_${event.id}`,
      type: event.type,
      resource: event.resource,
      payload: null,
      created_at: event.occurred_at,
      ...outcome,
    });
    await updateEndpoint(trx, endpoint.id, { cursor: event.id, locked_until: leaseEnd(settings) });
  });
}

/** A delivery's message: a ping's own payload, or its event as the feed sends it. */
function messageOf(delivery: DueDelivery): string | undefined {
  if (delivery.payload !== null) return delivery.payload;
  if (delivery.event_id === null || delivery.event_data === null) return undefined;
  return eventJson({
    id: delivery.event_id,
    type: delivery.type,
    facility_id: delivery.event_facility_id as number,
    occurred_at: delivery.event_occurred_at as string,
    data: delivery.event_data,
    actor: delivery.event_actor,
  });
}
