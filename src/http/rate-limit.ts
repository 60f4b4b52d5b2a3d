import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/** Counts a request of `key` in `window` and gives the count so far; undefined when it could not count. */
type Counter = (key: string, window: number) => number | Promise<number | undefined>;

/**
 * Per-API-key rate limit: RATE_LIMIT_PER_MINUTE requests per window of
 * RATE_LIMIT_WINDOW_MS (one minute unless changed), per client address when
 * authentication is off. Windows are fixed and aligned to the clock, so a
 * count is one number per key and window: in this process, or with
 * REDIS_URL in Redis, where every instance shares it. Must be registered
 * after authentication, whose hook names the key.
 *
 * Written here rather than taken from @fastify/rate-limit: that plugin cost
 * about 5.7 µs of a point read's 51 µs (its async hook chain, LRU store and
 * route options lookups on every request), and a fixed-window counter is a
 * Map increment or one Redis round trip.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const max = config.rateLimitPerMinute;
  if (max === 0) return;
  const windowMs = config.rateLimitWindowMs;
  const windowSeconds = Math.round(windowMs / 1000);
  const policy = `${max};w=${windowSeconds}`;
  const count = config.redisUrl ? await redisCounter(app, config) : localCounter();

  app.addHook('onRequest', (request, reply, done) => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const resetSeconds = Math.ceil(((window + 1) * windowMs - now) / 1000);
    const answer = (counted: number | undefined) => {
      // Fail open: without a count (Redis unreachable) the request is served.
      if (counted === undefined) return done();
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
          `Too many requests: at most ${max} per ${windowSeconds} s for each API key (each client address when authentication is off); retry in ${resetSeconds} s`,
          { headers: { 'retry-after': String(resetSeconds) } },
        ),
      );
    };
    const counted = count(keyOf(request), window);
    if (typeof counted === 'number') answer(counted);
    else counted.then(answer, () => answer(undefined));
  });
}

function keyOf(request: FastifyRequest): string {
  return request.principal?.keyId == null ? `ip:${request.ip}` : `key:${request.principal.keyId}`;
}

/** Counts of the current window only: memory holds one number per key that asked in it. */
function localCounter(): Counter {
  let current = Number.NaN;
  let counts = new Map<string, number>();
  return (key, window) => {
    if (window !== current) {
      current = window;
      counts = new Map();
    }
    const counted = (counts.get(key) ?? 0) + 1;
    counts.set(key, counted);
    return counted;
  };
}

/** INCR, and the key expires with its window: one atomic round trip per request. */
const COUNT_IN_WINDOW = `
local counted = redis.call('INCR', KEYS[1])
if counted == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return counted`;

async function redisCounter(app: FastifyInstance, config: Config): Promise<Counter> {
  // ioredis is loaded only when Redis is configured.
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl as string, {
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    // While Redis is unreachable a count fails at once (and the request is served) rather than wait.
    enableOfflineQueue: false,
  });
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis unavailable; rate limit skipped'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  // Counting starts once connected; a Redis that does not answer within the connect timeout is counted without.
  await Promise.race([
    new Promise((ready) => redis.once('ready', ready)),
    sleep(1000, undefined, { ref: false }),
  ]);
  redis.defineCommand('countInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
  const prefix = `${config.redisKeyPrefix}rate-limit:`;
  const countInWindow = (redis as unknown as Record<string, (...args: unknown[]) => Promise<number>>)
    .countInWindow;
  return (key, window) =>
    countInWindow
      .call(redis, `${prefix}${key}:${window}`, config.rateLimitWindowMs)
      .then(Number, (error: unknown) => {
        app.log.warn({ err: error }, 'rate limit not counted: redis failed');
        return undefined;
      });
}
