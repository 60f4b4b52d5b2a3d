import type { FastifyRequest } from 'fastify';

/**
 * The path of the request target, without its query. An absolute-form target
 * (`POST http://evil.example/admin/…`, RFC 9112 §3.2.2) is routed by its path
 * alone, so its scheme and host are dropped here too: the service never
 * repeats a host it was sent.
 */
export function requestPathOf(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  if (path.startsWith('/')) return path;
  return path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
}

/**
 * The path a route serves, with the request's own ids in their canonical form
 * (`7`, never `007` or `%37`) and BASE_PATH, and no trailing slash. It is
 * made from the route template, never from the request target.
 */
export function canonicalPathOf(request: FastifyRequest): string {
  const params = request.params as Record<string, unknown>;
  const template = request.routeOptions.url ?? requestPathOf(request);
  return template
    .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(canonicalId(params[name])))
    .replace(/\/+$/, '');
}

/** Validation reads an id as a number; before it (the idempotency claim), its text is read the same way. */
function canonicalId(value: unknown): string {
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return String(Number(value));
  return String(value);
}
