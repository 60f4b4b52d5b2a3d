import type { FastifyReply } from 'fastify';
import { etagOf } from '../../core/etag.js';
import type { Representation } from '../../core/representation.js';

interface ReplyOptions {
  status?: number;
  location?: string;
}

/**
 * The one place where a single resource's response is built (plan, member,
 * policy, entitlements): the body is serialized here, once, and carries the
 * ETag that If-Match is checked against. A plan, member or policy is
 * versioned by its `updated_at`; entitlements pass their write counter.
 */
export function replyWithResource<T extends { updated_at: string }>(
  reply: FastifyReply,
  representation: Representation<T>,
  resource: T,
  options?: ReplyOptions,
): FastifyReply;
export function replyWithResource<T>(
  reply: FastifyReply,
  representation: Representation<T>,
  resource: T,
  options: ReplyOptions & { version: number },
): FastifyReply;
export function replyWithResource<T>(
  reply: FastifyReply,
  representation: Representation<T>,
  resource: T,
  options: ReplyOptions & { version?: number } = {},
): FastifyReply {
  const body = representation(resource);
  const version = options.version ?? (resource as { updated_at: string }).updated_at;
  reply.code(options.status ?? 200);
  reply.header('etag', etagOf(representation, version));
  if (options.location) reply.header('location', options.location);
  reply.type('application/json; charset=utf-8');
  return reply.send(body);
}
