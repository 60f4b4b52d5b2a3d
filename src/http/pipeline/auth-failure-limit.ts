import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import type { SharedCounter } from './rate-limit-redis.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The 429 for a request from an address past the limit: authentication
     * (auth.ts) answers it unless the request's key is one this service
     * issued and it verifies.
     */
    authFailureRefusal: AppError | undefined;
  }
}

/** Addresses counted in one window at most: beyond it new addresses go uncounted, so memory stays bounded. */
export const MAX_TRACKED_ADDRESSES = 100_000;

/**
 * Failed authentications are throttled per client address: once an address
 * has had AUTH_FAILURE_LIMIT answers of 401 or 403 in a window of
 * AUTH_FAILURE_WINDOW_MS, its requests are 429 until the window ends, but
 * for those with a key this service issued (`fa_`, 256 random bits) that
 * verifies: the devices behind one NAT keep working when a third one fails.
 * A request without such a key is refused before its key is hashed; a right
 * guess of ADMIN_API_KEY is refused like a wrong one. Guessing a key of 256
 * random bits is hopeless at any rate, so verifying those costs the limit
 * nothing (docs/security.md, "Failed authentications"). Windows are fixed
 * and aligned to the clock, like the rate limit's.
 *
 * Whether an address is refused is decided from this process's memory, so a
 * request costs no round trip. With REDIS_URL each failure is also counted in
 * Redis, and the shared count is learnt with the answer to that failure: an
 * address over the limit on one instance is refused by another after at
 * most one more failure there. Redis down leaves the per-process count
 * (the connection and its warnings are the rate limit's: rate-limit-redis.ts).
 */
export function registerAuthFailureLimit(app: FastifyInstance, config: Config, shared?: SharedCounter): void {
  app.decorateRequest('authFailureRefusal', undefined);
  const limit = config.authFailureLimit;
  if (limit === 0 || config.authMode === 'none') return;
  const windowMs = config.authFailureWindowMs;
  const counts = new WindowCounts();

  app.addHook('onRequest', (request, _reply, done) => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    if (counts.get(clientAddressOf(request.ip), window) < limit) return done();
    const retryAfter = Math.ceil(((window + 1) * windowMs - now) / 1000);
    request.authFailureRefusal = new AppError(
      'rate_limited',
      `Too many failed authentications from this address: at most ${limit} per ${Math.round(windowMs / 1000)} s ` +
        '(AUTH_FAILURE_LIMIT per AUTH_FAILURE_WINDOW_MS); ' +
        `until then only valid API keys are served; retry in ${retryAfter} s`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
    done();
  });

  // onSend, not onResponse: the failure is counted before its answer leaves, so the next request sees it.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return payload;
    const window = Math.floor(Date.now() / windowMs);
    const address = clientAddressOf(request.ip);
    const counted = counts.add(address, window, 1);
    const total = await shared?.countShared(`auth-failures:${address}`, window, windowMs);
    if (total !== undefined && total > counted) counts.add(address, window, total - counted);
    return payload;
  });
}

/** Failures per address in the current window only: one number per address that failed in it. */
class WindowCounts {
  #window = Number.NaN;
  #counts = new Map<string, number>();

  get(address: string, window: number): number {
    return window === this.#window ? (this.#counts.get(address) ?? 0) : 0;
  }

  add(address: string, window: number, amount: number): number {
    if (window !== this.#window) {
      this.#window = window;
      this.#counts = new Map();
    }
    const known = this.#counts.get(address);
    if (known === undefined && this.#counts.size >= MAX_TRACKED_ADDRESSES) return 0;
    const counted = (known ?? 0) + amount;
    this.#counts.set(address, counted);
    return counted;
  }
}

/**
 * The address a limit applies to: an IPv4 address, or the /64 network of an
 * IPv6 one, since one host usually holds a whole /64 and could otherwise
 * change address at every guess.
 */
export function clientAddressOf(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!address.includes(':')) return address;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address.slice(7);
  const [head, tail] = address.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
