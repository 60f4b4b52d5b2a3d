import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { Ref } from '../../http/vocabulary/schemas.js';
import { Session, sessionOf } from './session.schemas.js';

export interface SessionRouteOptions {
  authMode: 'api-key' | 'none';
}

/** Who the caller is, so that a client (the console) can show the key's facilities and hide writes from viewers. */
export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, options) => {
  app.get(
    '/admin/session',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'getSession',
        summary: 'Describe the API key of the request',
        description:
          "Answers the API key's name, its role (`admin` reads and writes, `viewer` only reads) and the " +
          'facilities it may reach (null for all), and whether authentication is off. It reads nothing else ' +
          'and changes nothing; any valid key may call it.',
        response: { 200: { ...Ref(Session), description: 'The caller' }, ...problemResponses() },
      },
    },
    async (request) => sessionOf(request.principal, options.authMode),
  );
};
