/** Bookkeeping fields that change with every write and say nothing on their own (next_change_on is the schedule's). */
const IGNORED_FIELDS = new Set(['updated_at', 'next_change_on', 'allowed_transitions', 'state']);

export type Fields = Record<string, unknown>;

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

/** Entitlements as a field map (key → value), so their changes read like any resource's. */
export function entitlementFields(entitlements: { key: string; value: unknown }[]): Fields {
  return Object.fromEntries(entitlements.map((e) => [e.key, e.value]));
}
