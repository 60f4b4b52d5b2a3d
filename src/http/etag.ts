import { createHash } from 'node:crypto';
import { AppError } from './errors.js';

/**
 * A strong ETag from the representation itself: any change to what a client
 * sees changes it, and a write that changes nothing keeps it.
 */
export function etagOf(representation: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(representation)).digest('base64url').slice(0, 27)}"`;
}

/**
 * RFC 9110 If-Match with strong comparison: `*` matches any current
 * representation; a list matches if one tag equals the current ETag. Called
 * inside the write's transaction, after the row is locked, so two writers
 * holding the same ETag cannot both pass.
 */
export function assertIfMatch(ifMatch: string | undefined, current: unknown | undefined): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  if (current !== undefined && (tags.includes('*') || tags.includes(etagOf(current)))) return;
  throw new AppError(
    'precondition_failed',
    current === undefined
      ? 'If-Match was sent but the resource does not exist'
      : 'If-Match does not match the current ETag: the resource changed; read it again',
  );
}
