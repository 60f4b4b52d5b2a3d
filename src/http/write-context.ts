import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/database.js';
import type { Principal } from './auth.js';
import { etagOf } from './etag.js';
import type { Representation } from './representation.js';
import { canonicalPathOf } from './request-target.js';

/** What every write needs besides its input: who asks (for the audit trail) and its precondition. */
export interface WriteContext<T = { id: number }> {
  actor: Principal;
  requestId: string;
  /** The If-Match header, checked against the current representation inside the transaction. */
  ifMatch?: string;
  /**
   * Called by a create inside its transaction with the new resource: the
   * answer to an Idempotency-Key is stored in the same commit, so a crash
   * cannot leave a created resource that a retry would create again.
   */
  onCreated?(trx: Executor, created: T): Promise<void>;
}

/**
 * The path of the collection a POST was sent to, as the route names it: the
 * router takes `/plans/` for `/plans` and `/facilities/007` for
 * `/facilities/7`, and so must the Location of what it creates and the
 * fingerprint of an idempotent retry.
 */
export function collectionPathOf(request: FastifyRequest): string {
  return canonicalPathOf(request);
}

/** The URL of a resource created by a POST to its collection. */
export function locationOf(request: FastifyRequest, id: number): string {
  return `${collectionPathOf(request)}/${id}`;
}

/**
 * The context of a write. Creates also give their reply and representation:
 * with an Idempotency-Key, the answer stored in the create's transaction is
 * the very body and ETag the client is sent.
 */
export function writeContextOf<T extends { id: number; updated_at: string }>(
  request: FastifyRequest,
  created?: { reply: FastifyReply; representation: Representation<T> },
): WriteContext<T> {
  const ifMatch = request.headers['if-match'];
  const claim = request.idempotency;
  return {
    actor: request.principal,
    requestId: String(request.id),
    ifMatch: ifMatch || undefined,
    onCreated:
      claim && created
        ? async (trx, resource) => {
            created.reply.code(201);
            await claim.store(trx, {
              status: 201,
              body: created.representation(resource),
              location: locationOf(request, resource.id),
              etag: etagOf(created.representation, resource.updated_at),
            });
          }
        : undefined,
  };
}
