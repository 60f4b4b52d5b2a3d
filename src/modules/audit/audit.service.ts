import type { WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { eventOfChange, recordedEvent } from '../events/event.service.js';
import type { EventType } from '../events/event-types.js';
import { queueDeliveriesTo } from '../webhooks/webhook-delivery.service.js';
import { insertAuditEvent, insertAuditEventWithEvent } from './audit.repository.js';
import type { AuditAction, ResourceType } from './audit.schemas.js';

export type { AuditAction };

/** Bookkeeping fields that change with every write and say nothing on their own (next_change_on is the schedule's). */
const IGNORED_FIELDS = new Set(['updated_at', 'next_change_on', 'allowed_transitions', 'state']);

type Fields = Record<string, unknown>;

/** Field → {before, after} for every field whose value differs. */
export function diffFields(
  before: Fields | null,
  after: Fields | null,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const compare = (name: string) => {
    if (IGNORED_FIELDS.has(name)) return;
    const was = ownField(before, name);
    const is = ownField(after, name);
    if (differ(was, is)) changes[name] = { before: was, after: is };
  };
  for (const name of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) compare(name);
  return changes;
}

/**
 * A field's value, or null when absent. Own fields only: entitlement keys are
 * the client's, and one named `constructor` or `valueOf` must not read
 * Object.prototype's function when the other side lacks it.
 */
function ownField(fields: Fields | null, name: string): unknown {
  return fields !== null && Object.hasOwn(fields, name) ? (fields[name] ?? null) : null;
}

/** Fields hold JSON values: primitives compare as they are, anything else by its JSON text. */
function differ(was: unknown, is: unknown): boolean {
  if (was === is) return false;
  if (was === null || is === null || typeof was !== 'object' || typeof is !== 'object') return true;
  return JSON.stringify(was) !== JSON.stringify(is);
}

/**
 * Records a successful write in the audit trail, its event in the change
 * feed (src/modules/events/) and the event's webhook deliveries. Called with the write's own transaction, so
 * both exist exactly when the change does: every write goes through here.
 */
export async function recordAuditEvent(
  trx: Executor,
  context: WriteContext,
  event: {
    facilityId: number;
    resourceType: ResourceType;
    resourceId: number | string;
    action: AuditAction;
    before: Fields | null;
    after: Fields | null;
    /** The feed's event type, when the resource and action do not say it (src/modules/events/event-types.ts). */
    eventType?: EventType;
  },
): Promise<void> {
  const occurredAt = (context.now ?? new Date()).toISOString();
  const audit = {
    facility_id: event.facilityId,
    resource_type: event.resourceType,
    resource_id: String(event.resourceId),
    action: event.action,
    api_key_id: context.actor.keyId,
    api_key_name: context.actor.keyName,
    changes: JSON.stringify(diffFields(event.before, event.after)),
    request_id: context.requestId,
    occurred_at: occurredAt,
  };
  const changeEvent = eventOfChange(event, occurredAt);
  if (changeEvent === undefined) return insertAuditEvent(trx, audit);
  const { eventId, endpoints } = await insertAuditEventWithEvent(trx, audit, changeEvent);
  await queueDeliveriesTo(trx, recordedEvent(changeEvent, eventId), endpoints);
}

/** Entitlements as a field map (key → value), so their changes read like any resource's. */
export function entitlementFields(entitlements: { key: string; value: unknown }[]): Fields {
  return Object.fromEntries(entitlements.map((e) => [e.key, e.value]));
}
