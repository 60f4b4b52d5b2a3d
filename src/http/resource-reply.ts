import type { FastifyReply } from 'fastify';
import { etagOf } from './etag.js';

/**
 * The one place where a single resource's response is built (plan, member,
 * policy, entitlements): it carries the ETag that If-Match is checked against.
 */
export function replyWithResource<T>(
  reply: FastifyReply,
  resource: T,
  options: { status?: number; location?: string; version?: number } = {},
): T {
  reply.code(options.status ?? 200);
  reply.header('etag', etagOf(resource, options.version));
  if (options.location) reply.header('location', options.location);
  return resource;
}
