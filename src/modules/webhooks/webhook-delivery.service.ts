import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { getEndpoint } from './webhook.service.js';
import {
  countPendingPings,
  type DeliveryRow,
  findDelivery,
  insertDelivery,
  scheduleNow,
} from './webhook-delivery.repository.js';
import './webhook.problems.js';

/** Test pings an endpoint may have waiting at once: a ping to a receiver that never answers costs its turn. */
export const PENDING_PINGS_PER_ENDPOINT = 1;

/**
 * Queues a `ping` to the endpoint, delivered like any event by the
 * endpoint's own turn. One may wait at a time: more are 429.
 */
export async function queuePing(
  db: Db,
  facilityId: number,
  endpointId: number,
  now: Date,
): Promise<DeliveryRow> {
  return db.transaction().execute(async (trx) => {
    const endpoint = await getEndpoint(trx, facilityId, endpointId);
    if ((await countPendingPings(trx, endpoint.id)) >= PENDING_PINGS_PER_ENDPOINT) {
      throw new AppError(
        'rate_limited',
        `A test ping to webhook endpoint ${endpointId} is still waiting to be sent`,
        {
          headers: { 'retry-after': '5' },
        },
      );
    }
    const at = now.toISOString();
    const messageId = `ping_${endpoint.id}_${now.getTime().toString(36)}`;
    return insertDelivery(trx, {
      endpoint_id: endpoint.id,
      event_id: null,
      message_id: messageId,
      type: 'ping',
      resource: messageId,
      payload: JSON.stringify({
        type: 'ping',
        facility_id: facilityId,
        occurred_at: at,
        data: { endpoint_id: endpoint.id },
      }),
      status: 'pending',
      next_attempt_at: at,
      created_at: at,
    });
  });
}

/** Sends one delivery again, now, with the same webhook-id. */
export async function retryDelivery(
  db: Db,
  facilityId: number,
  endpointId: number,
  deliveryId: number,
  now: Date,
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
    return scheduleNow(trx, delivery.id, now.toISOString());
  });
}
