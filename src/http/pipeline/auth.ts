import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import { type Principal, servicePrincipal } from '../../core/principal.js';
import { grantsAllow, PERMISSION_DESCRIPTIONS } from '../../core/roles.js';
import type { KeyVerifier } from '../../infrastructure/api-keys/api-key.service.js';
import { MAX_ID } from '../vocabulary/schemas.js';
import { watchKeys } from './key-watch.js';
import { isSameOrigin, sessionSecretOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** After this process revoked a key: no key verified before is trusted from memory (KeyVerifier.forget). */
    forgetVerifiedKeys(): void;
  }
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

const EVERYONE: Principal = servicePrincipal('AUTH_MODE=none');
const READ_METHODS = new Set(['GET', 'HEAD']);

/** Verifies a console session's cookie (src/modules/session/): its principal, or undefined when it ended. */
export interface SessionVerifier {
  principalFor(secret: string): Promise<Principal | undefined>;
}

const crossSite = () =>
  new AppError(
    'cross_site_request',
    'A request signed in by the session cookie that changes something must come from the console itself ' +
      '(Origin or Sec-Fetch-Site); integrations send an API key instead',
  );

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
export function registerAuthentication(
  app: FastifyInstance,
  config: Config,
  keys: KeyVerifier,
  sessions?: SessionVerifier,
): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorate('forgetVerifiedKeys', () => keys.forget());
  registerKeyRechecks(app, config, keys);
  app.addHook('onRequest', (request, _reply, done) => {
    // Sign-in itself: open, but not past the failed-authentication limit.
    if (request.routeOptions.config.public) return done(request.authFailureRefusal);
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
    const cookie = secret === undefined && sessions ? sessionSecretOf(request) : undefined;
    if (cookie !== undefined && sessions) {
      // The browser sends the cookie whoever made the request: a change must come from the console itself.
      if (!READ_METHODS.has(request.method) && !isSameOrigin(request)) return done(crossSite());
      sessions.principalFor(cookie).then(admit, done);
      return;
    }
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

/**
 * The facility first (a caller with no role there learns nothing more),
 * then the route's permission (src/http/permissions.ts) against the
 * caller's roles there, or anywhere for a path that names no facility.
 */
function authorize(request: FastifyRequest, principal: Principal): void {
  const caller = principal.staffUserId === null ? 'This API key' : 'You';
  const facility = (request.params as { facility_id?: string }).facility_id;
  const facilityId = facility === undefined ? undefined : facilityIdOf(facility);
  // Not a facility id: validation answers 400 unless no role anywhere has the permission (below).
  if (
    facilityId !== undefined &&
    principal.facilityIds !== 'all' &&
    !principal.facilityIds.includes(facilityId)
  ) {
    throw new AppError(
      'forbidden',
      `${caller} ${principal.staffUserId === null ? 'has' : 'have'} no access to facility ${facilityId}`,
    );
  }
  const permission = request.routeOptions.config.permission ?? 'read';
  const kind = principal.keyId === null ? 'person' : 'key';
  if (!grantsAllow(principal.grants, permission, facilityId, kind)) {
    throw new AppError(
      'forbidden',
      `${caller} may not ${PERMISSION_DESCRIPTIONS[permission]}${facilityId === undefined ? '' : ` in facility ${facilityId}`}`,
    );
  }
}

/** The facility a path names, read as validation reads it ("007" is 7); undefined when validation refuses it. */
function facilityIdOf(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}
