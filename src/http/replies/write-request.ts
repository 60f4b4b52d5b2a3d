import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../../core/etag.js';
import type { Representation } from '../../core/representation.js';
import type { WriteContext } from '../../core/write-context.js';
import { canonicalPathOf } from '../pipeline/request-target.js';

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
    principal: request.principal,
    requestId: String(request.id),
    now: request.server.now(),
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
