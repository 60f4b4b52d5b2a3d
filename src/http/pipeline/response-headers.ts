import type { FastifyInstance } from 'fastify';

/**
 * What every response of the service carries, whatever its scope: browsers
 * must keep to HTTPS once they have seen it, and nothing may be sniffed or
 * framed.
 */
const EVERY_RESPONSE_HEADERS = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

/**
 * What OWASP's REST Security Cheat Sheet asks of API answers on top:
 * nothing may be stored by a cache (the bodies hold members' personal data)
 * or run as a page. The docs page sets its own Content-Security-Policy
 * (@fastify/swagger-ui's staticCSP), and a web console would set its own and
 * cache its hashed assets. The headers meant for HTML pages (helmet's set)
 * are left out of the API: each costs time on every answer
 * (docs/performance-log.md) and protects no JSON body.
 */
const API_RESPONSE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

/** Every header of an API answer: also what a problem document always carries, whatever scope it comes from. */
export const SECURITY_HEADERS = { ...EVERY_RESPONSE_HEADERS, ...API_RESPONSE_HEADERS } as const;

/** On the root: each response's X-Request-Id and the headers every response carries. */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(EVERY_RESPONSE_HEADERS);
    done();
  });
}

/** On the API's scope (the resources, /openapi.json, /metrics, /healthz, /readyz): never cached, never run. */
export function registerApiResponseHeaders(api: FastifyInstance): void {
  api.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_RESPONSE_HEADERS);
    done();
  });
}
