import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers suited to a JSON API: no content may be loaded or framed.
 * The docs page sets its own Content-Security-Policy (@fastify/swagger-ui's
 * staticCSP). helmet decides the headers; they are the same for every
 * response, so they are read from it once, at start, and set as one object
 * (@fastify/helmet runs helmet anew on every request, which cost a third of
 * the service's throughput).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
  });
  // helmet sets its headers synchronously on what it is given.
  applyHeaders({} as never, response as never, () => {});
  return headers;
}
