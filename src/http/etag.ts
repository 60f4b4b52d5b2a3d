import { createHash } from 'node:crypto';
import { AppError } from './errors.js';

/**
 * A strong ETag from the representation itself: any change to what a client
 * sees changes it, and a write that changes nothing keeps it. Computed from
 * canonical JSON, so the body as sent (fields in the response schema's order)
 * gives the same tag: an idempotent replay recomputes it from the stored body.
 * A resource whose representation can return to an earlier value without a
 * timestamp (entitlements) passes its write counter as `version`.
 */
export function etagOf(representation: unknown, version?: number): string {
  const text =
    version === undefined ? canonicalJson(representation) : `${canonicalJson(representation)}\n${version}`;
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** JSON with every object's keys sorted: equal values give equal text whatever the field order. */
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

/**
 * RFC 9110 If-Match with strong comparison: `*` matches any current
 * representation; a list matches if one tag equals the current ETag. Called
 * inside the write's transaction, after the row is locked, so two writers
 * holding the same ETag cannot both pass.
 */
export function assertIfMatch(
  ifMatch: string | undefined,
  current: unknown | undefined,
  version?: number,
): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  if (current !== undefined && (tags.includes('*') || tags.includes(etagOf(current, version)))) return;
  throw new AppError(
    'precondition_failed',
    current === undefined
      ? 'If-Match was sent but the resource does not exist'
      : 'If-Match does not match the current ETag: the resource changed; read it again',
  );
}
