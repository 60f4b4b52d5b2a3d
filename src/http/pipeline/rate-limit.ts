import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import { callerKeyOf } from '../../core/principal.js';
import { localCounter } from './rate-limit-counter.js';
import type { SharedCounter } from './rate-limit-redis.js';

/**
 * Per-API-key rate limit: RATE_LIMIT_PER_MINUTE requests per window of
 * RATE_LIMIT_WINDOW_MS (one minute unless changed), per client address when
 * authentication is off. Windows are fixed and aligned to the clock, so a
 * count is one number per key and window: in this process, or with
 * REDIS_URL in Redis (`shared`), where every instance shares it, and in
 * this process again while Redis is unreachable. Must be registered after
 * authentication, whose hook names the key.
 *
 * Written here rather than taken from @fastify/rate-limit: that plugin was a
 * visible share of a point read (its async hook chain, LRU store and route
 * options lookups on every request; docs/dependencies.md,
 * docs/performance-log.md), and a fixed-window counter is a
 * Map increment or one Redis round trip.
 */
export function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  shared?: SharedCounter,
  /** Milliseconds since the epoch, which the windows are aligned to; tests move their own. */
  now: () => number = Date.now,
): void {
  const max = config.rateLimitPerMinute;
  if (max === 0) return;
  const windowMs = config.rateLimitWindowMs;
  const windowSeconds = Math.round(windowMs / 1000);
  const policy = `${max};w=${windowSeconds}`;
  const count = shared?.count ?? localCounter();

  app.addHook('onRequest', (request, reply, done) => {
    const at = now();
    const window = Math.floor(at / windowMs);
    const resetSeconds = Math.ceil(((window + 1) * windowMs - at) / 1000);
    const answer = (counted: number) => {
      reply.headers({
        'ratelimit-policy': policy,
        'ratelimit-limit': max,
        'ratelimit-remaining': Math.max(0, max - counted),
        'ratelimit-reset': resetSeconds,
      });
      if (counted <= max) return done();
      done(
        new AppError(
          'rate_limited',
          `Too many requests: at most ${max} per ${windowSeconds} s for each API key (each client address when authentication is off; RATE_LIMIT_PER_MINUTE per RATE_LIMIT_WINDOW_MS); retry in ${resetSeconds} s`,
          { headers: { 'retry-after': String(resetSeconds) } },
        ),
      );
    };
    const counted = count(keyOf(request), window);
    if (typeof counted === 'number') answer(counted);
    else counted.then(answer, done);
  });
}

function keyOf(request: FastifyRequest): string {
  return (request.principal && callerKeyOf(request.principal)) ?? `ip:${request.ip}`;
}
