import type { FastifyReply } from 'fastify';

/**
 * The one place where a single resource's response is built (plan, member,
 * policy, entitlements). Response headers that describe one resource, such as
 * its version, belong here.
 */
export function replyWithResource<T>(
  reply: FastifyReply,
  resource: T,
  options: { status?: number; location?: string } = {},
): T {
  reply.code(options.status ?? 200);
  if (options.location) reply.header('location', options.location);
  return resource;
}
