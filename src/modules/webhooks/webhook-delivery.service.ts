import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import { eventJson } from '../../journal/event-json.js';
import { type JournaledEvent, onEventsJournaled } from '../../journal/journal.js';
import { getEndpoint } from './webhook.service.js';
import {
  type DeliveryRow,
  findDelivery,
  insertDeliveries,
  scheduleNow,
} from './webhook-delivery.repository.js';
import { enabledEndpointsOf } from './webhook-endpoint.repository.js';

/**
 * Writes one delivery per enabled endpoint of the facility that takes the
 * event's type, in the event's own transaction: an event that commits is
 * delivered, and a write that rolls back sends nothing.
 */
async function queueDeliveriesOf(trx: Executor, events: JournaledEvent[]): Promise<void> {
  const now = new Date().toISOString();
  for (const facilityId of new Set(events.map((event) => event.facility_id))) {
    const endpoints = await enabledEndpointsOf(trx, facilityId);
    if (endpoints.length === 0) continue;
    const deliveries = events
      .filter((event) => event.facility_id === facilityId)
      .flatMap((event) =>
        endpoints
          .filter((endpoint) => {
            const types = JSON.parse(endpoint.types) as string[];
            return types.length === 0 || types.includes(event.type);
          })
          .map((endpoint) => ({
            endpoint_id: endpoint.id,
            event_id: event.id,
            message_id: `evt_${event.id}`,
            type: event.type,
            resource: event.resource,
            payload: eventJson(event),
            next_attempt_at: now,
            created_at: now,
          })),
      );
    await insertDeliveries(trx, deliveries);
  }
}
onEventsJournaled(queueDeliveriesOf);

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
