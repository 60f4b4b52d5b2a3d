import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';

/**
 * A response body from this size on is counted until its client has taken
 * it. A smaller one goes to the socket's kernel buffer at once unless the
 * client stopped reading, and then holds at most this much, and Node stops
 * reading that connection's next requests (docs/decisions.md, "Memory").
 */
export const COUNTED_RESPONSE_BYTES = 16 * 1024;
/** What a streamed body (the /docs assets) holds in memory at most: its read buffer. */
const STREAM_BUFFER_BYTES = 64 * 1024;

interface Unsent {
  socket: Socket;
  bytes: number;
}

/**
 * Bounds what clients can make the process hold, whatever they do:
 * - at most MAX_CONNECTIONS connections; Node closes further ones as they arrive;
 * - a connection on which nothing moves for STALL_TIMEOUT_MS (no request bytes
 *   arrive, no response write completes) is closed, and with it what its
 *   response still held;
 * - responses not yet taken by their clients hold at most UNSENT_MAX_BYTES
 *   together: a response that would pass it first closes the connections
 *   whose responses have waited longest.
 */
export function limitClients(
  app: FastifyInstance,
  config: Pick<Config, 'maxConnections' | 'unsentMaxBytes' | 'stallTimeoutMs'>,
): void {
  app.server.maxConnections = config.maxConnections;
  app.server.setTimeout(config.stallTimeoutMs);

  // In the order the responses were sent: the first is the one that waited longest.
  const unsent = new Set<Unsent>();
  let unsentBytes = 0;
  const release = (entry: Unsent) => {
    if (unsent.delete(entry)) unsentBytes -= entry.bytes;
  };

  app.addHook('onSend', (request, reply, sent, done) => {
    const payload = asBufferWhenLarge(sent);
    const bytes = bodyBytes(payload);
    const socket = request.raw.socket;
    // app.inject's requests have no socket to hold anything.
    if (bytes < COUNTED_RESPONSE_BYTES || !(socket instanceof Socket) || socket.destroyed) {
      return done(null, payload);
    }
    for (const oldest of unsent) {
      if (unsentBytes + bytes <= config.unsentMaxBytes) break;
      release(oldest);
      oldest.socket.destroy();
      request.log.warn(
        { unsentBytes: oldest.bytes },
        'closed the connection of a client that had not taken its response, to stay within UNSENT_MAX_BYTES',
      );
    }
    const entry = { socket, bytes };
    unsent.add(entry);
    unsentBytes += bytes;
    // After 'finish' (handed to the kernel) or when the connection closes first.
    reply.raw.once('close', () => release(entry));
    done(null, payload);
  });
}

/**
 * A body that may take COUNTED_RESPONSE_BYTES or more, encoded here: its
 * bytes are then counted exactly, and neither this hook nor Fastify (for
 * Content-Length) calls Buffer.byteLength on it. On Node 26.10 that call, on
 * a string built by concatenation, flattens the string inside one of V8's
 * fast API calls, and a garbage collection there aborted the process under
 * load ("Lazy deopt after a fast API call with return value is
 * unsupported"; docs/decisions.md, "Runtime"). Buffer.from takes Node's
 * ordinary binding for a string of 4,096 characters or more.
 */
function asBufferWhenLarge(payload: unknown): unknown {
  return typeof payload === 'string' && payload.length * 3 >= COUNTED_RESPONSE_BYTES
    ? Buffer.from(payload)
    : payload;
}

function bodyBytes(payload: unknown): number {
  // A string here is shorter than COUNTED_RESPONSE_BYTES / 3 characters (asBufferWhenLarge).
  if (typeof payload === 'string') return payload.length;
  if (Buffer.isBuffer(payload)) return payload.length;
  if (payload !== null && typeof payload === 'object' && 'pipe' in payload) return STREAM_BUFFER_BYTES;
  return 0;
}
