import { AppError } from './errors.js';
import type { Representation } from './representation.js';

/**
 * A strong ETag from what changes with every write: the resource's version
 * (its `updated_at`, which writeTimeAfter keeps strictly increasing per row,
 * or a write counter) and the revision of its representation. A write that
 * changes nothing keeps both. Hashing the body as sent did the same, but a
 * SHA-256 of every answer was a visible share of a point read
 * (docs/performance-log.md).
 */
export function etagOf(
  representation: Pick<Representation<unknown>, 'revision'>,
  version: string | number,
): string {
  const counter = typeof version === 'number' ? version : Date.parse(version);
  return `"${representation.revision}-${counter.toString(36)}"`;
}

/**
 * The `updated_at` of a write to a row last written at `previous`: now, or
 * one millisecond after `previous` when the clock has not moved past it (two
 * writes within one millisecond, or a clock behind another instance's), so
 * that every write gives the row a new version and so a new ETag.
 */
export function writeTimeAfter(previous: string, now: number): string {
  return new Date(Math.max(now, Date.parse(previous) + 1)).toISOString();
}

/**
 * RFC 9110 If-Match with strong comparison: `*` matches any current
 * representation; a list matches if one tag equals a current ETag. Called
 * inside the write's transaction, after the row is locked, so two writers
 * holding the same ETag cannot both pass. `current` is undefined when there
 * is no current representation, and several tags when one state is served
 * by several representations (one entitlement, and the collection it is in).
 */
export function assertIfMatch(ifMatch: string | undefined, current: string | string[] | undefined): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  const currentTags = typeof current === 'string' ? [current] : current;
  if (currentTags !== undefined && (tags.includes('*') || currentTags.some((tag) => tags.includes(tag))))
    return;
  throw new AppError(
    'precondition_failed',
    current === undefined
      ? 'If-Match was sent but the resource does not exist'
      : 'If-Match does not match the current ETag: the resource changed; read it again',
  );
}
