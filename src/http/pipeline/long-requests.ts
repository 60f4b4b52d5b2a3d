import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { callerKeyOf } from '../../core/principal.js';

/**
 * Requests that wait (long polls of the feed) hold their connection the whole
 * time, and a process takes at most MAX_CONNECTIONS connections: past it Node
 * closes every new one as it arrives, plain requests included
 * (client-limits.ts). So waiting requests get slots of their own, bounded:
 * - at most `total` at once, which is at most half of MAX_CONNECTIONS, so the
 *   other half is always left for plain requests;
 * - at most `perHolder` per API key (per client address with AUTH_MODE=none),
 *   so one client cannot take every slot from the others.
 * Beyond either, the request is 429 `rate_limited` with Retry-After, and its
 * connection is closed after that answer: a refused poller keeps no slot of
 * MAX_CONNECTIONS either. A slot is taken when the request is admitted (in
 * its handler, before its first read) and given back when its response ends
 * or its connection closes; counting only the readers parked between two
 * reads let bursts pass the limit.
 */
export interface LongRequestSlots {
  /** Takes a slot for a request that will wait up to `waitMs`, or throws the 429. */
  admit(request: FastifyRequest, reply: FastifyReply, waitMs: number): void;
  /** Requests holding a slot now. */
  held(): number;
}

/** Seconds a refused poller is asked to wait: slots free up as polls are answered, every few seconds. */
const RETRY_AFTER_SECONDS = 1;

export function longRequestSlots(settings: {
  total: number;
  perHolder: number;
  maxConnections: number;
  stallTimeoutMs: number;
  /** What the requests are, for the 429's detail ("reads of the feed"). */
  what: string;
}): LongRequestSlots {
  const total = Math.min(settings.total, Math.floor(settings.maxConnections / 2));
  const byHolder = new Map<string, number>();
  let held = 0;

  const refuse = (detail: string) =>
    new AppError('rate_limited', detail, {
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS), connection: 'close' },
    });

  return {
    admit(request, reply, waitMs) {
      // The key's own limit first: a client over it learns that it is the one to wait less.
      const holder = holderOf(request);
      const own = byHolder.get(holder) ?? 0;
      if (own >= settings.perHolder) {
        throw refuse(
          `This API key already has ${own} ${settings.what} waiting (at most ${settings.perHolder}); ` +
            'retry when one is answered, or without wait',
        );
      }
      if (held >= total) {
        throw refuse(
          `Too many ${settings.what} are waiting in this process (at most ${total}); retry later, or without wait`,
        );
      }
      held++;
      byHolder.set(holder, own + 1);
      let released = false;
      // 'close' comes once the response is handed over, or when the connection closes before.
      reply.raw.once('close', () => {
        if (released) return;
        released = true;
        held--;
        const left = (byHolder.get(holder) ?? 1) - 1;
        if (left === 0) byHolder.delete(holder);
        else byHolder.set(holder, left);
      });
      holdConnectionOpen(request, reply, settings.stallTimeoutMs, waitMs);
    },
    held: () => held,
  };
}

/** The API key, or the client address when authentication is off (as the rate limit counts). */
function holderOf(request: FastifyRequest): string {
  return (request.principal && callerKeyOf(request.principal)) ?? `ip:${request.ip}`;
}

/**
 * A waiting request moves no bytes: the connection's stall timeout
 * (STALL_TIMEOUT_MS) is lengthened by the wait for this request, and set back
 * when its answer is written.
 */
function holdConnectionOpen(
  request: FastifyRequest,
  reply: FastifyReply,
  stallMs: number,
  waitMs: number,
): void {
  const socket = request.raw.socket;
  if (typeof socket?.setTimeout !== 'function') return; // app.inject's stand-in has none
  socket.setTimeout(stallMs + waitMs);
  reply.raw.once('finish', () => socket.setTimeout(stallMs));
}
