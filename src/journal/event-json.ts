import { type ChangeReport, eventDataOf, eventTypeOf, resourceKeyOf } from './event-types.js';
import type { EventValues } from './journal.repository.js';

/**
 * The event row of a change, journaled in the write's own transaction: the
 * event commits with the change or not at all. Undefined for a change that
 * has no event type.
 */
export function eventOfChange(
  change: ChangeReport,
  occurredAt: string,
  actorJson: string,
): EventValues | undefined {
  const type = eventTypeOf(change);
  if (type === undefined) return undefined;
  return {
    facility_id: change.facilityId,
    type,
    resource: resourceKeyOf(change),
    occurred_at: occurredAt,
    data: JSON.stringify(eventDataOf(change, type)),
    actor: actorJson,
  };
}

/** An event as the feed and webhooks send it, built from the stored JSON without parsing it. */
export function eventJson(row: {
  id: number;
  type: string;
  facility_id: number;
  occurred_at: string;
  data: string;
  actor: string | null;
}): string {
  return `{"id":${row.id},"type":${JSON.stringify(row.type)},"facility_id":${row.facility_id},"occurred_at":${JSON.stringify(row.occurred_at)},"actor":${row.actor ?? 'null'},"data":${row.data}}`;
}
