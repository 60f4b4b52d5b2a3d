import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { KeyVerifier } from '../../infrastructure/api-keys/api-key.service.js';
import { MAX_ID } from '../vocabulary/schemas.js';
import { watchKeys } from './key-watch.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    /**
     * For a request that waits: calls `onRevoked` once if its key is revoked
     * meanwhile (checked every EVENTS_POLL_INTERVAL_MS; key-watch.ts).
     * Returns the function that stops watching.
     */
    watchKeyRevocation(onRevoked: () => void): () => void;
    /** Verifies the request's key again (after a wait): throws the same 401 as any request with a revoked key. */
    verifyKeyAgain(): Promise<void>;
  }
}

const EVERYONE: Principal = { keyId: null, keyName: 'AUTH_MODE=none', role: 'admin', facilityIds: 'all' };
const READ_METHODS = new Set(['GET', 'HEAD']);

const unauthenticated = () =>
  new AppError('unauthenticated', 'Send a valid API key as "Authorization: Bearer <key>"', {
    headers: { 'www-authenticate': 'Bearer realm="facility-admin"' },
  });

/**
 * The one place every API route passes through: authentication (401) first,
 * before the request is parsed or validated, then authorization (403): the
 * facility in the path must be in the key's scope, and a viewer may only read.
 * A path that names no valid facility id is left to validation (400).
 *
 * From an address past the failed-authentication limit (auth-failure-limit.ts
 * sets `authFailureRefusal`), only a key this service issued that verifies is
 * served; anything else is that 429, and only such a key is even looked up
 * (docs/security.md, "Failed authentications").
 */
export function registerAuthentication(app: FastifyInstance, config: Config, keys: KeyVerifier): void {
  app.decorateRequest('principal', null as unknown as Principal);
  registerKeyRechecks(app, config, keys);
  app.addHook('onRequest', (request, _reply, done) => {
    if (config.authMode === 'none') {
      request.principal = EVERYONE;
      return done();
    }
    const refusal = request.authFailureRefusal;
    const admit = (principal: Principal | undefined) => {
      // Past the limit, a guess of ADMIN_API_KEY (key id 0, any text an operator chose) is refused even when right.
      if (refusal && (!principal || principal.keyId === 0)) return done(refusal);
      if (!principal) return done(unauthenticated());
      request.principal = principal;
      try {
        authorize(request, principal);
      } catch (error) {
        return done(error as AppError);
      }
      done();
    };
    const secret = bearerToken(request);
    // Past the limit, anything but a key of this service is refused before it costs a hash.
    if (refusal && (secret === undefined || !keys.isServiceKey(secret))) return done(refusal);
    const principal = secret === undefined ? undefined : keys.principalFor(secret);
    // A key verified before answers at once; only a lookup waits.
    if (principal instanceof Promise) principal.then(admit, done);
    else admit(principal);
  });
}

/** What a waiting request uses to learn that its key was revoked (the principal's key id 0 and null never are). */
function registerKeyRechecks(app: FastifyInstance, config: Config, keys: KeyVerifier): void {
  const watch = watchKeys(keys, config.eventsPollIntervalMs);
  app.addHook('onClose', async () => watch.close());
  const revocable = (request: FastifyRequest) => {
    const secret = bearerToken(request);
    return config.authMode === 'api-key' && request.principal?.keyId && secret ? secret : undefined;
  };
  app.decorateRequest('watchKeyRevocation', function (this: FastifyRequest, onRevoked: () => void) {
    const secret = revocable(this);
    return secret === undefined ? () => {} : watch.watch(secret, onRevoked);
  });
  app.decorateRequest('verifyKeyAgain', async function (this: FastifyRequest) {
    const secret = revocable(this);
    if (secret !== undefined && (await keys.principalFor(secret)) === undefined) throw unauthenticated();
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

function authorize(request: FastifyRequest, principal: Principal): void {
  if (principal.role !== 'admin' && !READ_METHODS.has(request.method)) {
    throw new AppError('forbidden', 'This API key may only read');
  }
  const facility = (request.params as { facility_id?: string }).facility_id;
  if (facility === undefined || principal.facilityIds === 'all') return;
  const facilityId = facilityIdOf(facility);
  // Not a facility id: validation answers 400, and the route is never reached.
  if (facilityId === undefined) return;
  if (!principal.facilityIds.includes(facilityId)) {
    throw new AppError('forbidden', `This API key has no access to facility ${facilityId}`);
  }
}

/** The facility a path names, read as validation reads it ("007" is 7); undefined when validation refuses it. */
function facilityIdOf(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}
