import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { clearSessionCookie, isSameOrigin, setSessionCookie } from '../../http/pipeline/session-cookie.js';
import { BODY_PROBLEMS, problemResponses } from '../../http/vocabulary/responses.js';
import { NoContent, Ref } from '../../http/vocabulary/schemas.js';
import {
  type NewSession,
  principalOfSession,
  signInWithLink,
  signInWithPassword,
  signOut,
  signOutEverywhere,
} from '../staff/staff-sign-in.service.js';
import type { AccountFailures } from './account-failures.js';
import { Session, sessionOf } from './session.schemas.js';
import './session.problems.js';

const Password = Type.String({ minLength: 1, maxLength: 1024 });
const SignIn = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), password: Password },
  {
    $id: 'SignIn',
    additionalProperties: false,
    examples: [{ email: 'dana.reyes@riverside.example', password: 'correct horse battery staple' }],
  },
);
const LinkSignIn = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The secret of the link (after `token=`)',
    }),
    password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The new password: 12 to 128 characters',
    }),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: "The first owner's only" }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: "The first owner's only" })),
  },
  {
    $id: 'LinkSignIn',
    additionalProperties: false,
    examples: [{ token: 'k3JH…', password: 'correct horse battery staple' }],
  },
);
export const signInSchemas = [SignIn, LinkSignIn];

const signedIn = { 200: { ...Ref(Session), description: 'Signed in: the session cookie is set' } };

/** Sign-in and sign-out of people (the console); API keys need neither. */
export const signInRoutes: FastifyPluginAsyncTypebox<{ config: Config; failures: AccountFailures }> = async (
  app,
  { config, failures },
) => {
  const settings = { idleMs: config.people.sessionIdleMs, maxMs: config.people.sessionMaxMs };
  // Login CSRF: a sign-in from another site would sign the browser in as someone else.
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' && request.headers.origin !== undefined && !isSameOrigin(request)) {
      throw new AppError('cross_site_request', 'Sign in from the console itself');
    }
  });
  const answer = async (
    reply: Parameters<typeof setSessionCookie>[1],
    request: Parameters<typeof setSessionCookie>[0],
    session: NewSession,
  ) => {
    setSessionCookie(request, reply, session.secret, session.expiresAt);
    const principal = await principalOfSession(app.db, session.secret, settings, app.now());
    return sessionOf(principal as Principal, 'api-key');
  };

  app.post(
    '/admin/session',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password',
        description:
          'Signs a person in to the console: a new session, its secret in an HttpOnly cookie. An unknown e-mail, ' +
          'a wrong password and a disabled person get the same 401 in the same time. More than ' +
          '`SIGN_IN_FAILURES_PER_ACCOUNT` failures for one e-mail, or `AUTH_FAILURE_LIMIT` from one address, ' +
          'per window: 429 `rate_limited`. Open to anyone: no key.',
        body: Ref(SignIn),
        security: [],
        response: { ...signedIn, ...problemResponses('rate_limited', ...BODY_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      failures.assertMayTry(email, app.now());
      try {
        const session = await signInWithPassword(
          app.db,
          { email, password, userAgent: request.headers['user-agent'] ?? null },
          settings,
          app.now(),
        );
        return answer(reply, request, session);
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthenticated') failures.add(email, app.now());
        throw error;
      }
    },
  );

  app.post(
    '/admin/session/link',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        operationId: 'signInWithLink',
        summary: 'Use a one-time link: set a password and sign in',
        description:
          "Uses an invitation, a password reset or the first owner's link once: sets the password (12 to 128 " +
          "characters, not the e-mail nor the product's name: 400 naming `/password`), makes an invited person " +
          "active, and signs them in. The first owner's link also takes `email` and `name`. A link used, " +
          'expired or unknown: 410 `link_not_usable`.',
        body: Ref(LinkSignIn),
        security: [],
        response: {
          ...signedIn,
          ...problemResponses('link_not_usable', 'staff_email_conflict', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const session = await signInWithLink(
        app.db,
        request.body,
        request.headers['user-agent'] ?? null,
        settings,
        app.now(),
      );
      return answer(reply, request, session);
    },
  );

  app.delete(
    '/admin/session',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'signOut',
        summary: 'Sign out',
        description:
          'Ends the session of the cookie and clears the cookie; with an API key, nothing to end: 204 too.',
        response: { 204: NoContent, ...problemResponses() },
      },
    },
    async (request, reply) => {
      await signOut(app.db, request.principal);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/session/sign-out-everywhere',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'signOutEverywhere',
        summary: 'End every session of the signed-in person',
        description:
          'Ends every session of the person signed in, on every device, this one included; with an API key, ' +
          'nothing to end: 204 too.',
        response: { 204: NoContent, ...problemResponses() },
      },
    },
    async (request, reply) => {
      // An API key has no sessions: nothing to end (revoke the key to stop it).
      if (request.principal.staffUserId !== null)
        await signOutEverywhere(app.db, request.principal.staffUserId);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
};
