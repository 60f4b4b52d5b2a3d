import type { FastifyBaseLogger } from 'fastify';
import { type Clock, systemClock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import {
  type EndpointDeliverySettings,
  FAILURES_THAT_HOLD_NEW_EVENTS,
  leaseEnd,
  serveEndpoint,
} from './endpoint-delivery.js';
import { claimEndpoint, findEndpointsWithWork } from './endpoint-queue.repository.js';

/** After the first attempt (at once): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map(
  (s) => s * 1000,
);

export interface DeliveryWorkerSettings extends Omit<EndpointDeliverySettings, 'now'> {
  pollIntervalMs: number;
  /** Endpoints this process serves at once (WEBHOOK_CONCURRENCY); one message at a time each. */
  concurrency: number;
  now?: Clock;
}

export interface DeliveryWorker {
  stop(): Promise<void>;
}

/**
 * Delivers the journal's events to webhook endpoints. Every
 * `pollIntervalMs`, and as soon as a turn ends, it takes endpoints with work
 * for as many turns as it has room for (`concurrency`), the least recently
 * served first, and at most half of its room for one facility: a facility
 * whose receivers never answer keeps the other half for everyone else. An
 * endpoint is served by one process at a time, under a lease renewed with
 * every message: a process that dies mid-turn leaves the endpoint to be
 * taken again once the lease ends, and its last messages to be sent again
 * (at least once, with the same webhook-id). Several processes share the
 * endpoints.
 */
export function startDeliveryWorker(
  db: Db,
  settings: DeliveryWorkerSettings,
  log: FastifyBaseLogger,
): DeliveryWorker {
  const now = settings.now ?? systemClock;
  let stopped = false;
  const turnSettings: EndpointDeliverySettings = { ...settings, now, stopping: () => stopped };
  const perFacility = Math.max(1, Math.floor(settings.concurrency / 2));
  const serving = new Map<number, { facilityId: number; turn: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let looking = false;

  const servedIn = (facilityId: number) =>
    [...serving.values()].filter((entry) => entry.facilityId === facilityId).length;

  const look = async () => {
    if (looking || stopped) return;
    looking = true;
    clearTimeout(timer);
    try {
      const room = settings.concurrency - serving.size;
      if (room > 0) {
        const at = now();
        const candidates = await findEndpointsWithWork(
          db,
          at.toISOString(),
          FAILURES_THAT_HOLD_NEW_EVENTS,
          room * 4,
        );
        for (const candidate of candidates) {
          if (serving.size >= settings.concurrency || stopped) break;
          if (serving.has(candidate.id) || servedIn(candidate.facility_id) >= perFacility) continue;
          const endpoint = await claimEndpoint(db, candidate.id, at.toISOString(), leaseEnd(turnSettings));
          if (!endpoint) continue;
          const turn = serveEndpoint(db, turnSettings, endpoint, log)
            .catch((error) => log.error({ err: error, endpoint: endpoint.id }, 'webhook delivery failed'))
            .finally(() => {
              serving.delete(endpoint.id);
              if (!stopped) setImmediate(look);
            });
          serving.set(endpoint.id, { facilityId: endpoint.facility_id, turn });
        }
      }
    } catch (error) {
      log.warn({ err: error }, 'webhook delivery: could not look for endpoints with work');
    } finally {
      looking = false;
      if (!stopped) timer = setTimeout(look, settings.pollIntervalMs).unref();
    }
  };
  timer = setTimeout(look, 0).unref();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (serving.size > 0) await Promise.allSettled([...serving.values()].map((entry) => entry.turn));
    },
  };
}
