import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Generated ids are a prefix drawn at random once per process (64 bits) and
 * a counter: unique across processes, instances and restarts like a UUID,
 * for a string concatenation instead of a UUID per request.
 */
const PROCESS_PREFIX = randomBytes(8).toString('hex');
let generated = 0;

/** Keeps the client's X-Request-Id when it is safe to echo and log, else makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const offered = request.headers['x-request-id'];
  if (typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered)) return offered;
  return newRequestId();
}

export function newRequestId(): string {
  generated++;
  return `${PROCESS_PREFIX}-${generated.toString(36)}`;
}
