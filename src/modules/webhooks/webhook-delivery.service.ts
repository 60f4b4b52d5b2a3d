import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { RecordedEvent } from '../events/event.service.js';
import { getEndpoint } from './webhook.service.js';
import {
  type DeliveryRow,
  findDelivery,
  insertDeliveries,
  scheduleNow,
} from './webhook-delivery.repository.js';
import type { EndpointRow } from './webhook-endpoint.repository.js';

/**
 * Writes one delivery per enabled endpoint of the facility that takes the
 * event's type, in the event's own transaction: an event that commits is
 * delivered, and a write that rolls back sends nothing. The endpoints are
 * read by the caller in that transaction (insertAuditEventWithEvent).
 */
export async function queueDeliveriesTo(
  trx: Executor,
  event: RecordedEvent,
  endpoints: readonly Pick<EndpointRow, 'id' | 'types'>[],
): Promise<void> {
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
