import { hash } from 'node:crypto';
import { AppError } from './errors.js';
import type { Representation } from './representation.js';

/**
 * A strong ETag from the representation as sent: any change to what a client
 * sees changes it, and a write that changes nothing keeps it. An idempotent
 * replay sends the stored body and so carries the first answer's tag. A
 * resource whose representation can return to an earlier value without a
 * timestamp (entitlements) passes its write counter as `version`.
 */
export function etagOf(body: string, version?: number): string {
  const text = version === undefined ? body : `${body}\n${version}`;
  return `"${hash('sha256', text, 'base64url').slice(0, 27)}"`;
}

/**
 * RFC 9110 If-Match with strong comparison: `*` matches any current
 * representation; a list matches if one tag equals the current ETag. Called
 * inside the write's transaction, after the row is locked, so two writers
 * holding the same ETag cannot both pass.
 */
export function assertIfMatch<T>(
  ifMatch: string | undefined,
  current: T | undefined,
  representation: Representation<T>,
  version?: number,
): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  if (
    current !== undefined &&
    (tags.includes('*') || tags.includes(etagOf(representation(current), version)))
  ) {
    return;
  }
  throw new AppError(
    'precondition_failed',
    current === undefined
      ? 'If-Match was sent but the resource does not exist'
      : 'If-Match does not match the current ETag: the resource changed; read it again',
  );
}
