import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { Ref } from '../../http/vocabulary/schemas.js';
import { Session, sessionOf } from './session.schemas.js';

export interface SessionRouteOptions {
  authMode: 'api-key' | 'none';
}

/** Who the caller is, so that a client (the console) can show the caller's facilities and only what their roles allow. */
export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, options) => {
  app.get(
    '/admin/session',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'getSession',
        summary: 'Describe the caller: the signed-in person or the API key',
        description:
          'Answers who the caller is (`actor`: the person signed in with the session cookie, or the API key), ' +
          'their roles per facility with the permissions each gives, the facilities they may reach (null for ' +
          'all), and whether authentication is off. It changes nothing; every caller may call it, a person ' +
          'with no role included.',
        response: { 200: { ...Ref(Session), description: 'The caller' }, ...problemResponses() },
      },
    },
    async (request) => sessionOf(request.principal, options.authMode),
  );
};
