import { AppError } from '../../core/errors.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db } from '../../db/database.js';
import { type Write, write } from '../../journal/write-path.js';
import { getEndpoint } from './webhook.service.js';
import {
  countPendingPings,
  type DeliveryRow,
  findDelivery,
  insertDelivery,
  scheduleNow,
  toDelivery,
} from './webhook-delivery.repository.js';
import './webhook.events.js';
import './webhook.problems.js';

/** Test pings an endpoint may have waiting at once: a ping to a receiver that never answers costs its turn. */
export const PENDING_PINGS_PER_ENDPOINT = 1;

/**
 * A delivery a key asked for (a ping, a retry), in the audit trail as the
 * API shows the delivery: deliveries of events are the journal's own and
 * are not audited again.
 */
function journalDelivery(
  { record }: Write,
  facilityId: number,
  before: DeliveryRow | null,
  after: DeliveryRow,
): void {
  record({
    facilityId,
    resourceType: 'webhook_delivery',
    resourceId: after.id,
    action: before === null ? 'create' : 'update',
    before: before && toDelivery(before),
    after: toDelivery(after),
  });
}

/**
 * Queues a `ping` to the endpoint, delivered like any event by the
 * endpoint's own turn. One may wait at a time: more are 429.
 */
export async function queuePing(
  db: Db,
  context: WriteContext,
  facilityId: number,
  endpointId: number,
): Promise<DeliveryRow> {
  const now = context.now;
  return write(db, context, async (writing) => {
    const { trx } = writing;
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
    const ping = await insertDelivery(trx, {
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
    journalDelivery(writing, facilityId, null, ping);
    return ping;
  });
}

/** Sends one delivery again, now, with the same webhook-id. */
export async function retryDelivery(
  db: Db,
  context: WriteContext,
  facilityId: number,
  endpointId: number,
  deliveryId: number,
): Promise<DeliveryRow> {
  return write(db, context, async (writing) => {
    const { trx } = writing;
    const endpoint = await getEndpoint(trx, facilityId, endpointId);
    const delivery = await findDelivery(trx, endpoint.id, deliveryId);
    if (!delivery) {
      throw new AppError(
        'delivery_not_found',
        `Webhook endpoint ${endpointId} has no delivery ${deliveryId}`,
      );
    }
    const due = await scheduleNow(trx, delivery.id, context.now.toISOString());
    journalDelivery(writing, facilityId, delivery, due);
    return due;
  });
}
