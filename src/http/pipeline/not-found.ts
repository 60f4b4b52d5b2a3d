import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod, type HTTPVersion } from 'find-my-way';
import { AppError } from '../../core/errors.js';
import { sendProblem } from './error-handler.js';
import { requestPathOf } from './request-target.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Unknown paths are 404 not_found; a known path with another method is 405
 * with an Allow header. Fastify answers both with 404, so a second router
 * records every route's path to tell them apart.
 */
export function registerNotFoundHandler(app: FastifyInstance): void {
  // No parameter length limit: a path whose parameter is too long for the API's router still names its route.
  const known = FindMyWay<HTTPVersion.V1>({
    ignoreTrailingSlash: true,
    maxParamLength: Number.MAX_SAFE_INTEGER,
  });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.map((m) => m.toUpperCase() as HTTPMethod)) {
      if (!known.hasRoute(method, route.url)) known.on(method, route.url, () => {});
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = requestPathOf(request);
    const allowed = METHODS.filter((method) => known.find(method, path) !== null);
    // A route of this very method that found nothing to serve (a docs file that is not there) is 404.
    if (allowed.length > 0 && !allowed.includes(request.method as (typeof METHODS)[number])) {
      const error = new AppError(
        'method_not_allowed',
        `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`,
        { headers: { allow: allowed.join(', ') } },
      );
      return sendProblem(request, reply, error);
    }
    return sendProblem(request, reply, new AppError('not_found', `No resource at ${path}`));
  });
}
