import { invalidField } from './errors.js';

/**
 * Keyset paging over `id` ascending. The cursor is opaque to clients; inside
 * it is the last id of the previous page, so a page costs the same however
 * deep it is.
 */
export interface PageRequest {
  limit: number;
  afterId: number;
}

export const DEFAULT_PAGE_SIZE = 100;

export function readPageRequest(query: { limit?: number; cursor?: string }): PageRequest {
  return {
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    afterId: query.cursor === undefined ? 0 : decodeCursor(query.cursor),
  };
}

export function encodeCursor(lastId: number): string {
  return Buffer.from(`id:${lastId}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^id:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || encodeCursor(id) !== cursor) {
    throw invalidField('query', 'cursor', 'is not a cursor this service issued');
  }
  return id;
}
