import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { type Counter, localCounter } from './rate-limit-counter.js';

/**
 * Counts shared by every instance through one Redis connection per process:
 * the rate limit's and the failed-authentication limit's.
 */
export interface SharedCounter {
  /** The rate limit's counter: in Redis, and in this process while Redis is unreachable. */
  count: Counter;
  /** Counts one under `name` in its window and gives every instance's count; undefined while Redis fails. */
  countShared(name: string, window: number, windowMs: number): Promise<number | undefined>;
  /** False while Redis is unreachable: the limits then count in this process only. */
  available(): boolean;
}

/** While Redis stays unreachable, the warning is repeated at most this often. */
export const REDIS_WARNING_INTERVAL_MS = 60_000;
/** A Redis that does not answer a count within this is treated as unreachable for that request. */
const REDIS_COMMAND_TIMEOUT_MS = 1000;

/** INCR, and the key expires with its window: one atomic round trip per request. */
const COUNT_IN_WINDOW = `
local counted = redis.call('INCR', KEYS[1])
if counted == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return counted`;

/**
 * Connects to REDIS_URL when a limit is on (the rate limit, the failed-authentication limit). While Redis is
 * unreachable each request is counted in this process instead (the limit
 * then holds per process, as without Redis), nothing waits for Redis, and
 * the log says so once, then at most once a minute, rather than at every
 * reconnection attempt and every request.
 */
export async function openSharedCounter(
  app: FastifyInstance,
  config: Config,
): Promise<SharedCounter | undefined> {
  const limited =
    config.rateLimitPerMinute > 0 || (config.authFailureLimit > 0 && config.authMode !== 'none');
  if (config.redisUrl === undefined || !limited) return undefined;
  // ioredis is loaded only when Redis is configured.
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, {
    connectTimeout: 1000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    // While Redis is unreachable a count goes to the local counter at once rather than wait.
    enableOfflineQueue: false,
  });
  const where = redisAddress(config.redisUrl);
  const available = () => redis.status === 'ready';
  let lastWarning = Number.NEGATIVE_INFINITY;
  let failuresSinceWarning = 0;
  let warnedSinceReady = false;
  const failed = (error: unknown) => {
    failuresSinceWarning++;
    const now = Date.now();
    if (now - lastWarning < REDIS_WARNING_INTERVAL_MS) return;
    app.log.warn(
      { err: error, redis: where, failures: failuresSinceWarning },
      'redis unavailable; rate limits are counted per process until it is back',
    );
    lastWarning = now;
    failuresSinceWarning = 0;
    warnedSinceReady = true;
  };
  redis.on('ready', () => {
    if (warnedSinceReady)
      app.log.info({ redis: where }, 'redis available again; rate limits are shared again');
    warnedSinceReady = false;
  });
  // Every failed reconnection attempt is an error event: without the throttle, a line every 2 s.
  redis.on('error', failed);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  // Counting in Redis starts once connected; one that does not answer within the connect timeout is warned about now.
  await Promise.race([
    new Promise((ready) => redis.once('ready', ready)),
    sleep(1000, undefined, { ref: false }),
  ]);
  if (!available()) failed(new Error(`no connection to ${where} within 1 s`));

  redis.defineCommand('countInWindow', { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
  const countInWindow = (redis as unknown as Record<string, (...args: unknown[]) => Promise<number>>)
    .countInWindow;
  const countShared = async (name: string, window: number, windowMs: number) => {
    if (!available()) return undefined;
    try {
      return Number(await countInWindow.call(redis, `${config.redisKeyPrefix}${name}:${window}`, windowMs));
    } catch (error) {
      failed(error);
      return undefined;
    }
  };
  const local = localCounter();
  return {
    available,
    countShared,
    count: (key, window) => {
      if (!available()) return local(key, window);
      return countShared(`rate-limit:${key}`, window, config.rateLimitWindowMs).then(
        (counted) => counted ?? local(key, window),
      );
    },
  };
}

/** host:port of a Redis URL, without its password, for log lines. */
function redisAddress(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || 6379}`;
  } catch {
    return 'REDIS_URL';
  }
}
