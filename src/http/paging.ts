import type { FastifyReply } from 'fastify';
import type { PageRead } from '../db/page-rows.js';
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
 * Answers one page of a list, serialized here item by item so that it stops
 * at whichever comes first: `limit` items, or items that take `maxBytes`
 * bytes of JSON (PAGE_MAX_BYTES). A page holds at least one item, so paging
 * always moves on; a page that stopped early has a `next_cursor`.
 */
export async function sendPage<T extends { id: number }>(
  reply: FastifyReply,
  key: string,
  page: PageRequest & { maxBytes: number },
  serialize: (item: T) => string,
  read: (request: PageRead) => Promise<T[]> | T[],
): Promise<FastifyReply> {
  // One row more than the page: it tells whether another page follows.
  const rows = await read({ afterId: page.afterId, rows: page.limit + 1, maxBytes: page.maxBytes });
  const items: string[] = [];
  let length = 0;
  // Counted only once the characters could exceed the budget: a character takes 1 to 3 bytes.
  let bytes: number | undefined;
  for (const row of rows) {
    if (items.length === page.limit) break;
    const item = serialize(row);
    const separator = items.length === 0 ? 0 : 1;
    if (bytes === undefined && (length + separator + item.length) * 3 > page.maxBytes) {
      const separators = Math.max(items.length - 1, 0);
      bytes = items.reduce((sum, counted) => sum + Buffer.byteLength(counted), separators);
    }
    if (bytes !== undefined) {
      const size = separator + Buffer.byteLength(item);
      if (items.length > 0 && bytes + size > page.maxBytes) break;
      bytes += size;
    }
    items.push(item);
    length += separator + item.length;
  }
  const last = rows[items.length - 1];
  const nextCursor = rows.length > items.length ? `"${encodeCursor(last.id)}"` : 'null';
  reply.type('application/json; charset=utf-8');
  return reply.send(`{"${key}":[${items.join(',')}],"next_cursor":${nextCursor}}`);
}
