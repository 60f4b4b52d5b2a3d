import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { callerKeyOf } from '../../core/principal.js';
import type { Executor } from '../../db/database.js';
import { collectionPathOf } from '../../http/replies/write-request.js';
import { canonicalJson } from './canonical-json.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyRecord,
  type IdempotencyRecord,
  reclaimIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.repository.js';

/** How long a key is remembered: a retry within this window is answered from the record. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A first request still "in flight" after this long died with its process; a retry may take over. */
const ABANDONED_AFTER_MS = 60 * 1000;

/** What the route schema allows (1 to 255 printable ASCII characters); the hook claims only such keys. */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

/** The header every POST route declares, so it is validated and documented. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      'x-pattern-message': 'must be printable ASCII characters',
      description:
        'Makes a retried create safe: the same key and body within 24 hours replays the first answer',
    }),
  ),
});

/** The claim a request holds on its Idempotency-Key. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** True once the answer was stored inside the write's own transaction. */
  stored: boolean;
  /** Stores the answer with the write's transaction, so a crash cannot leave a create without it. */
  store(
    trx: Executor,
    answer: { status: number; body: string; location: string | null; etag: string | null },
  ): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyClaim | null;
  }
}

function claimFor(scope: string, key: string, maxResponseBytes: number, now: Clock): IdempotencyClaim {
  return {
    scope,
    key,
    stored: false,
    async store(trx, answer) {
      // Never true for a created resource (its schema keeps it near 16 KB): left to storeAnswer, which releases.
      if (Buffer.byteLength(answer.body) > maxResponseBytes) return;
      await completeIdempotencyKey(trx, scope, key, { ...answer, now: now().toISOString() });
      this.stored = true;
    },
  };
}

/**
 * Idempotent creates. A POST with Idempotency-Key claims the key in the
 * database (so a retry on another instance is recognised) before the request
 * is validated. A create stores its answer in its own transaction (see
 * writeContextOf); any other answer is stored when it is sent. A retry with
 * the same key and body gets that answer again with `Idempotent-Replayed: true`.
 * An answer over `maxResponseBytes` is not kept: the key is released, as after
 * a 5xx, and a retry runs again.
 */
export function registerIdempotency(app: FastifyInstance, limits: { maxResponseBytes: number }): void {
  app.decorateRequest('idempotency', null);
  // preValidation, not preHandler: a request that fails validation (400) is
  // remembered and replayed like any other answer. A malformed key is left
  // alone here, for validation to refuse it with 400. It runs before the
  // route's own preValidation (trimming), on the body as sent.
  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return;
    const scope = scopeOf(request);
    const requestHash = hashRequest(request);
    const now = app.now();
    if (await claimIdempotencyKey(app.db, { scope, key, requestHash, now: now.toISOString() })) {
      request.idempotency = claimFor(scope, key, limits.maxResponseBytes, app.now);
      return;
    }
    const existing = await findIdempotencyRecord(app.db, scope, key);
    if (existing && !isStale(existing, now)) return answerFromRecord(existing, requestHash, reply);
    const claimed = existing
      ? await reclaimIdempotencyKey(app.db, existing, { requestHash, now: now.toISOString() })
      : await claimIdempotencyKey(app.db, { scope, key, requestHash, now: now.toISOString() });
    if (!claimed) throw inProgress();
    request.idempotency = claimFor(scope, key, limits.maxResponseBytes, app.now);
  };

  const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    // A large answer arrives encoded already (src/http/pipeline/client-limits.ts).
    const encoded = Buffer.isBuffer(payload) ? payload : undefined;
    const body = typeof payload === 'string' ? payload : (encoded?.toString('utf8') ?? '');
    const bytes = encoded?.length ?? Buffer.byteLength(body);
    if (reply.statusCode >= 500 || (!claim.stored && bytes > limits.maxResponseBytes)) {
      // A failure that may not happen again, or an answer too large to keep: let the retry run.
      await releaseIdempotencyKey(app.db, claim.scope, claim.key);
    } else if (!claim.stored) {
      const location = reply.getHeader('location');
      const etag = reply.getHeader('etag');
      await completeIdempotencyKey(app.db, claim.scope, claim.key, {
        status: reply.statusCode,
        body,
        location: typeof location === 'string' ? location : null,
        etag: typeof etag === 'string' ? etag : null,
        now: app.now().toISOString(),
      });
    }
    return payload;
  };

  // Only creates (POST) take an Idempotency-Key: other routes carry no hooks for it.
  app.addHook('onRoute', (route) => {
    // Sign-in is no create, and has no caller yet to scope a key to.
    if (route.method !== 'POST' || (route.config as { public?: boolean } | undefined)?.public) return;
    route.preValidation = [claimKey, ...hooksOf(route.preValidation)];
    route.onSend = [storeAnswer, ...hooksOf(route.onSend)];
  });
}

/** A key's retries, a person's (never another's), or `anonymous` when authentication is off. */
const scopeOf = (request: FastifyRequest) => callerKeyOf(request.principal) ?? 'anonymous';

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * A body that was not kept but streamed (a CSV import's, into the
 * database): its parser hashes the bytes as they pass and hands over the
 * SHA-256, which stands for the bytes in the request's fingerprint.
 */
export class DigestedBody {
  constructor(readonly sha256: string) {}
}

function hashRequest(request: FastifyRequest): string {
  const { body } = request;
  // A CSV body is fingerprinted as its bytes; a JSON one as its value, whatever the order of its keys.
  // The query too, when there is one: an import's dry run and its real run are two requests.
  const queryAt = request.url.indexOf('?');
  const query = queryAt === -1 ? '' : request.url.slice(queryAt);
  return createHash('sha256')
    .update(`${request.method} ${collectionPathOf(request)}${query}\n`)
    .update(
      body instanceof DigestedBody
        ? `sha256:${body.sha256}`
        : Buffer.isBuffer(body)
          ? body
          : canonicalJson(body ?? null),
    )
    .digest('hex');
}

/**
 * Whether the request's Idempotency-Key names a request made before that is
 * still remembered (answered, or in flight): its answer will come from the
 * record. A route that refuses requests before reading their body (an
 * import while another one runs) lets such a retry through to be replayed.
 */
export async function isRetryOfRememberedRequest(db: Executor, request: FastifyRequest): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return false;
  const record = await findIdempotencyRecord(db, scopeOf(request), key);
  return record !== undefined && !isStale(record, request.server.now());
}

function isStale(record: IdempotencyRecord, now: Date): boolean {
  const age = now.getTime() - Date.parse(record.created_at);
  return age > IDEMPOTENCY_WINDOW_MS || (record.response_status === null && age > ABANDONED_AFTER_MS);
}

function answerFromRecord(record: IdempotencyRecord, requestHash: string, reply: FastifyReply) {
  if (record.request_hash !== requestHash) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was used for a different request; use a new key for a new request',
    );
  }
  if (record.response_status === null) throw inProgress();
  if (record.response_location) reply.header('location', record.response_location);
  if (record.response_etag) reply.header('etag', record.response_etag);
  return reply
    .code(record.response_status)
    .header('idempotent-replayed', 'true')
    .type(
      record.response_status >= 400
        ? 'application/problem+json; charset=utf-8'
        : 'application/json; charset=utf-8',
    )
    .serializer((payload: unknown) => payload as string)
    .send(record.response_body ?? '');
}

function inProgress(): AppError {
  return new AppError(
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly',
    { headers: { 'retry-after': '1' } },
  );
}

/**
 * An answer that holds a secret (a webhook's signing secret, a credential's
 * value) must not be kept by the idempotency store, where it would rest
 * unencrypted: the POSTs that send one ignore Idempotency-Key (their onRequest).
 */
export async function ignoreIdempotencyKey(request: FastifyRequest): Promise<void> {
  delete request.headers['idempotency-key'];
}
