import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth.js';

/** What every write needs besides its input: who asks (for the audit trail) and its precondition. */
export interface WriteContext {
  actor: Principal;
  requestId: string;
  /** The If-Match header, checked against the current representation inside the transaction. */
  ifMatch?: string;
}

export function writeContextOf(request: FastifyRequest): WriteContext {
  const ifMatch = request.headers['if-match'];
  return { actor: request.principal, requestId: String(request.id), ifMatch: ifMatch || undefined };
}
