import type { FastifyReply } from 'fastify';
import { etagOf } from './etag.js';
import type { Representation } from './representation.js';

/**
 * The one place where a single resource's response is built (plan, member,
 * policy, entitlements): the body is serialized here, once, and carries the
 * ETag that If-Match is checked against.
 */
export function replyWithResource<T>(
  reply: FastifyReply,
  representation: Representation<T>,
  resource: T,
  options: { status?: number; location?: string; version?: number } = {},
): FastifyReply {
  const body = representation(resource);
  reply.code(options.status ?? 200);
  reply.header('etag', etagOf(body, options.version));
  if (options.location) reply.header('location', options.location);
  reply.type('application/json; charset=utf-8');
  return reply.send(body);
}
