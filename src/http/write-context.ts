import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/database.js';
import type { Principal } from './auth.js';

/** What every write needs besides its input: who asks (for the audit trail) and its precondition. */
export interface WriteContext {
  actor: Principal;
  requestId: string;
  /** The If-Match header, checked against the current representation inside the transaction. */
  ifMatch?: string;
  /**
   * Called by a create inside its transaction with the new resource: the
   * answer to an Idempotency-Key is stored in the same commit, so a crash
   * cannot leave a created resource that a retry would create again.
   */
  onCreated?: (trx: Executor, created: { id: number }) => Promise<void>;
}

/** The context of a write; `reply` is given by creates (POST answers 201 with Location). */
export function writeContextOf(request: FastifyRequest, reply?: FastifyReply): WriteContext {
  const ifMatch = request.headers['if-match'];
  const claim = request.idempotency;
  return {
    actor: request.principal,
    requestId: String(request.id),
    ifMatch: ifMatch || undefined,
    onCreated:
      claim && reply
        ? async (trx, created) => {
            const location = `${request.url.split('?')[0]}/${created.id}`;
            reply.code(201);
            await claim.store(trx, { status: 201, body: String(reply.serialize(created)), location });
          }
        : undefined,
  };
}
