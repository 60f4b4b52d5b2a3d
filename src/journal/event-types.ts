/**
 * The event types of the change feed. A module whose writes are events
 * defines, per resource type it journals (its `*.events.ts`, imported by
 * the code that journals it): the types its changes can be, which one a
 * change is, and an example of each for the OpenAPI document. Every other
 * resource type journals audit entries only. src/modules.ts lists every
 * module, so every type is known when the service starts.
 */
export interface ChangeReport {
  facilityId: number;
  resourceType: string;
  resourceId: number | string;
  /** create, update, delete, restore, hard_delete, or a module's own. */
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The type, when the resource and action alone do not say it. */
  eventType?: string;
}

export interface ResourceEvents {
  resourceType: string;
  /** Each event type of the resource, with the `data` of a realistic example. */
  examples: Record<string, Record<string, unknown>>;
  /** The event a change is; undefined for none. */
  typeOf(change: ChangeReport): string | undefined;
  /** The resource an event is about (an endpoint's deliveries of one resource keep their order); `<type>:<id>` by default. */
  keyOf?(change: ChangeReport): string;
  /** The event's `data`, when it is not the resource after the change (as before it, for a hard delete). */
  dataOf?(change: ChangeReport, type: string): Record<string, unknown>;
}

const byResource = new Map<string, ResourceEvents>();

export function defineResourceEvents(events: ResourceEvents): void {
  if (byResource.has(events.resourceType)) throw new Error(`events of ${events.resourceType} defined twice`);
  for (const type of Object.keys(events.examples)) {
    if (eventTypes().includes(type)) throw new Error(`event type ${type} defined twice`);
  }
  byResource.set(events.resourceType, events);
}

/** Every event type, by name: the same order whatever order modules load in. */
export function eventTypes(): string[] {
  return [...byResource.values()].flatMap((events) => Object.keys(events.examples)).sort();
}

/** The `data` of an example of each type. */
export function eventExamples(): Record<string, Record<string, unknown>> {
  return Object.assign({}, ...[...byResource.values()].map((events) => events.examples));
}

/**
 * The event a change is, or undefined for a change that is no event. A
 * resource type whose events were never defined is a mistake (its
 * `*.events.ts` not imported), not a change without events: it throws.
 */
export function eventTypeOf(change: ChangeReport): string | undefined {
  const events = byResource.get(change.resourceType);
  if (!events) throw new Error(`no events are defined for resource type ${change.resourceType}`);
  return change.eventType ?? events.typeOf(change);
}

/**
 * The event's `data`: the resource after the change, unless its module says
 * otherwise. A hard delete has no "after": its event carries the resource as
 * it last was, and every `*.deleted` says which delete it was
 * (`hard_deleted`).
 */
export function eventDataOf(change: ChangeReport, type: string): Record<string, unknown> {
  const dataOf = byResource.get(change.resourceType)?.dataOf;
  if (dataOf) return dataOf(change, type);
  const resource = { ...(change.after ?? change.before ?? {}) };
  return type.endsWith('.deleted')
    ? { ...resource, hard_deleted: change.action === 'hard_delete' }
    : resource;
}

/** The resource an event is about, by which deliveries of one endpoint keep their order. */
export function resourceKeyOf(change: ChangeReport): string {
  const keyOf = byResource.get(change.resourceType)?.keyOf;
  return keyOf ? keyOf(change) : `${change.resourceType}:${change.resourceId}`;
}
