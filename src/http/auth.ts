import type { FastifyInstance } from 'fastify';

/**
 * Who is calling. Every request passes through `registerAuthentication`,
 * the single seam where API keys will be checked; until then every caller
 * acts as an admin of every facility and any Authorization header is ignored.
 */
export interface Principal {
  keyId: number | null;
  keyName: string;
  role: 'admin' | 'viewer';
  facilityIds: number[] | 'all';
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const EVERYONE: Principal = { keyId: null, keyName: 'anonymous', role: 'admin', facilityIds: 'all' };

export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    request.principal = EVERYONE;
  });
}
