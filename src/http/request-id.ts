import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps the client's X-Request-Id when it is safe to echo and log, else makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const offered = request.headers['x-request-id'];
  return typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
}

export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
