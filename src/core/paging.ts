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

/**
 * Where a page of a list in another order than by id starts: after the
 * member with this sort value and this id. Inside the cursor are the sort
 * (a cursor of one sort is refused under another), the last id and value of
 * the previous page, so paging stays exact under inserts and costs the same
 * however deep it is.
 */
export interface SortedAfter {
  value: string;
  id: number;
}

export function encodeSortedCursor(sort: string, value: string, id: number): string {
  return Buffer.from(`by:${sort}:${id}:${value}`).toString('base64url');
}

/** The start of a sorted page from its cursor, or a 400 for a cursor not issued for this sort. */
export function decodeSortedCursor(cursor: string, sort: string): SortedAfter {
  const match = /^by:([^:]+):([1-9]\d{0,15}):(.*)$/s.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[2]) : Number.NaN;
  if (match === null || !Number.isSafeInteger(id) || encodeSortedCursor(match[1], match[3], id) !== cursor) {
    throw invalidField('query', 'cursor', 'is not a cursor this service issued');
  }
  if (match[1] !== sort)
    throw invalidField('query', 'cursor', `was issued for sort=${match[1]}: list with that sort`);
  return { value: match[3], id };
}
