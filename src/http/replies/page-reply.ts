import type { FastifyReply } from 'fastify';
import { encodeCursor, type PageRequest } from '../../core/paging.js';
import type { PageRead } from '../../db/page-rows.js';

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
  /** The next page's cursor after an item, for a list in another order than by id. */
  cursorAfter: (item: T) => string = (item) => encodeCursor(item.id),
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
  const nextCursor = rows.length > items.length ? `"${cursorAfter(last)}"` : 'null';
  reply.type('application/json; charset=utf-8');
  return reply.send(`{"${key}":[${items.join(',')}],"next_cursor":${nextCursor}}`);
}
