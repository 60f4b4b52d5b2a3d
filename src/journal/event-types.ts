/**
 * Every event type, in one list: the feed's `types` filter, the webhook
 * endpoints' `types` and the OpenAPI document all read it. A module that adds
 * a kind of change adds its type here, and either fits the mapping below or
 * passes its type to recordAuditEvent (`eventType`).
 */
export const EVENT_TYPES = [
  'plan.created',
  'plan.updated',
  'plan.deleted',
  'plan.entitlements_changed',
  'member.created',
  'member.updated',
  'member.status_changed',
  'member.deleted',
  'member.freeze_created',
  'member.freeze_updated',
  'member.freeze_cancelled',
  'policy.updated',
  'webhook_endpoint.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What every write reports (the audit trail's own description of it). */
export interface ChangeReport {
  facilityId: number;
  resourceType: string;
  resourceId: number | string;
  /** create, update, delete, restore, hard_delete, or a module's own. */
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The type, when the resource and action alone do not say it. */
  eventType?: EventType;
}

/** The event a change is, or undefined for a change that is no event. */
export function eventTypeOf(change: ChangeReport): EventType | undefined {
  if (change.eventType) return change.eventType;
  const { resourceType, action } = change;
  if (resourceType === 'entitlements') return 'plan.entitlements_changed';
  if (resourceType === 'policy') return 'policy.updated';
  if (resourceType === 'plan') {
    if (action === 'create') return 'plan.created';
    if (action === 'delete' || action === 'hard_delete') return 'plan.deleted';
    return 'plan.updated';
  }
  if (resourceType === 'member') {
    if (action === 'create') return 'member.created';
    if (action === 'delete' || action === 'hard_delete') return 'member.deleted';
    if (change.before?.status !== change.after?.status) return 'member.status_changed';
    return 'member.updated';
  }
  if (resourceType === 'freeze') {
    if (action === 'create') return 'member.freeze_created';
    if (change.before?.cancelled_at == null && change.after?.cancelled_at != null)
      return 'member.freeze_cancelled';
    return 'member.freeze_updated';
  }
  return undefined;
}

/**
 * The event's `data`: the resource after the change. A hard delete has no
 * "after": its event carries the resource as it last was; every `*.deleted`
 * says which delete it was (`hard_deleted`). A status change also carries
 * `previous_status`; entitlements are the plan's whole set after the change.
 */
export function eventDataOf(change: ChangeReport, type: EventType): Record<string, unknown> {
  if (type === 'plan.entitlements_changed') {
    const entitlements = Object.entries(change.after ?? {})
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { plan_id: Number(change.resourceId), entitlements };
  }
  // next_change_on is the schedule's bookkeeping, never part of a member's representation.
  const { next_change_on: _schedule, ...resource } = change.after ?? change.before ?? {};
  if (type === 'member.status_changed')
    return { ...resource, previous_status: change.before?.status ?? null };
  if (type.endsWith('.deleted')) return { ...resource, hard_deleted: change.action === 'hard_delete' };
  return { ...resource };
}

/** The resource an event is about, by which deliveries of one endpoint keep their order. */
export function resourceKeyOf(change: ChangeReport): string {
  // A freeze's events keep their order with its member's: a freeze starting and the member's status move.
  if (change.resourceType === 'freeze') return `member:${(change.after ?? change.before)?.member_id}`;
  const type = change.resourceType === 'entitlements' ? 'plan' : change.resourceType;
  return `${type}:${change.resourceId}`;
}
