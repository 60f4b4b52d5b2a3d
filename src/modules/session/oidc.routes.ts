import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { setSessionCookie } from '../../http/pipeline/session-cookie.js';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { type OidcSignIn, oidcSignInFrom } from '../../infrastructure/oidc/oidc-sign-in.js';
import { startOidcSignIn, takeOidcSignIn } from '../staff/staff-oidc.service.js';
import { signInWithVerifiedEmail } from '../staff/staff-sign-in.service.js';

/** How long a browser has between leaving for the provider and coming back. */
const SIGN_IN_WITHIN_MS = 10 * 60_000;

const SignInOptions = Type.Object(
  {
    password: Type.Boolean({ description: 'Sign-in with e-mail and password (always)' }),
    password_reset: Type.Boolean({
      description: '"Forgot password" sends e-mail (SMTP_URL is set): the console offers it only then',
    }),
    oidc: Type.Union([Type.Null(), Type.Object({ label: Type.String(), url: Type.String() })], {
      description:
        "Sign-in through the facility's identity provider: the button's label and where it goes; null when not set up",
    }),
  },
  {
    $id: 'SignInOptions',
    additionalProperties: false,
    examples: [{ password: true, password_reset: true, oidc: null }],
  },
);
export const oidcSchemas = [SignInOptions];

/**
 * Sign-in through the facility's OpenID Connect provider: authorization
 * code with PKCE, state and nonce (src/infrastructure/oidc/). The state,
 * nonce and code verifier are kept server-side under the state's hash, used
 * once; the browser that started also carries the state in a short cookie,
 * so that a callback forged into another browser signs no one in there.
 */
export const oidcRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  const clients = new Map<string, OidcSignIn | undefined>();
  const base = (request: FastifyRequest) =>
    config.people.publicUrl ?? `${request.protocol}://${request.host}${config.basePath}`;
  const clientFor = (request: FastifyRequest) => {
    const redirectUri = `${base(request)}/admin/session/oidc/callback`;
    if (!clients.has(redirectUri)) clients.set(redirectUri, oidcSignInFrom(config, redirectUri));
    return clients.get(redirectUri);
  };
  const backToConsole = (request: FastifyRequest, reply: FastifyReply, problem?: string) =>
    reply.redirect(`${base(request)}/console/${problem ? `#/signin?problem=${problem}` : ''}`, 302);

  app.get(
    '/admin/sign-in-options',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        operationId: 'getSignInOptions',
        summary: 'How people may sign in',
        description:
          'Open to anyone: whether sign-in through an identity provider is set up (OIDC_ISSUER), and its label; ' +
          'whether "forgot password" can e-mail a link (SMTP_URL).',
        security: [],
        response: {
          200: { $ref: 'SignInOptions', description: 'The ways to sign in' },
          ...problemResponses(),
        },
      },
    },
    async (request) => {
      const client = clientFor(request);
      return {
        password: true,
        password_reset: config.mail !== undefined,
        oidc: client ? { label: client.buttonLabel, url: `${base(request)}/admin/session/oidc` } : null,
      };
    },
  );

  app.get(
    '/admin/session/oidc',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const client = clientFor(request);
      if (!client) return backToConsole(request, reply, 'oidc_not_configured');
      const start = await client.startSignIn();
      await startOidcSignIn(app.db, start, SIGN_IN_WITHIN_MS, app.now());
      reply.header('set-cookie', `fa_oidc_state=${start.state}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600`);
      return reply.redirect(start.url, 302);
    },
  );

  app.get(
    '/admin/session/oidc/callback',
    // What a provider sends back is its own to choose (code, state, iss, session_state, error…).
    {
      config: { public: true },
      schema: { hide: true, querystring: Type.Object({}, { additionalProperties: true }) },
    },
    async (request, reply) => {
      const client = clientFor(request);
      const state = new URL(request.url, 'http://callback').searchParams.get('state') ?? '';
      const cookieState = /(?:^|;\s*)fa_oidc_state=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      const expected =
        client && cookieState === state ? await takeOidcSignIn(app.db, state, app.now()) : undefined;
      if (!client || !expected) return backToConsole(request, reply, 'oidc_expired');
      let email: string;
      try {
        email = (await client.finishSignIn(new URL(request.url, base(request)), expected)).email;
      } catch (error) {
        request.log.warn({ reason: (error as { reason?: string }).reason }, 'OpenID sign-in refused');
        return backToConsole(request, reply, 'oidc_refused');
      }
      const settings = { idleMs: config.people.sessionIdleMs, maxMs: config.people.sessionMaxMs };
      const session = await signInWithVerifiedEmail(
        app.db,
        email,
        request.headers['user-agent'] ?? null,
        settings,
        app.now(),
      );
      if (!session) return backToConsole(request, reply, 'oidc_unknown_person');
      setSessionCookie(request, reply, session.secret, session.expiresAt);
      reply.header('set-cookie', 'fa_oidc_state=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
      return backToConsole(request, reply);
    },
  );
};
