import type { FastifyInstance } from 'fastify';

/** One log line per request, written when the response is done. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key_id: request.principal?.keyId ?? null,
      },
      'request',
    );
    done();
  });
}
