/**
 * JSON with every object's keys sorted: equal values give equal text whatever
 * the field order, so a retry that sends the same fields in another order is
 * the same request.
 */
export function canonicalJson(value: unknown): string {
  const keys = new Set<string>();
  collectKeys(value, keys);
  // An allow-list replacer writes each object's properties in the list's order (natively, without copies).
  return JSON.stringify(value, [...keys].sort());
}

function collectKeys(value: unknown, keys: Set<string>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, keys);
    return;
  }
  for (const [key, field] of Object.entries(value)) {
    keys.add(key);
    collectKeys(field, keys);
  }
}
