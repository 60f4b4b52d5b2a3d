import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/**
 * Per-API-key rate limit (RATE_LIMIT_PER_MINUTE per RATE_LIMIT_WINDOW_MS, one
 * minute unless changed; per client IP when authentication is off). With
 * REDIS_URL the counters live in Redis, so the limit holds across instances.
 * Must be registered after authentication, whose hook names the key.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const max = config.rateLimitPerMinute;
  if (max === 0) return;
  const windowSeconds = Math.round(config.rateLimitWindowMs / 1000);
  // ioredis is loaded only when Redis is configured.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      })
    : undefined;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis unavailable; rate limit skipped'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    max,
    timeWindow: config.rateLimitWindowMs,
    redis,
    nameSpace: `${config.redisKeyPrefix}rate-limit:`,
    // Fail open: a Redis outage must not take the API down with it.
    skipOnError: true,
    enableDraftSpec: true,
    keyGenerator: (request) =>
      request.principal?.keyId == null ? `ip:${request.ip}` : `key:${request.principal.keyId}`,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `Too many requests: at most ${context.max} per ${windowSeconds} s for each API key (each client address when authentication is off); retry in ${context.after}`,
      ),
  });
  const policy = `${max};w=${windowSeconds}`;
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('ratelimit-policy', policy);
    done();
  });
}
