import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { clearSessionCookie, setSessionCookie } from '../../http/pipeline/session-cookie.js';
import { writeContextOf } from '../../http/replies/write-request.js';
import { BODY_PROBLEMS, problemResponses } from '../../http/vocabulary/responses.js';
import { Id, NoContent, Nullable, Ref, StringEnum, Timestamp } from '../../http/vocabulary/schemas.js';
import {
  changeOwnPassword,
  endOwnSession,
  listOwnSessions,
  type PasswordAttempts,
  SESSIONS_LISTED_AT_MOST,
} from '../staff/staff-account.service.js';

const PasswordChange = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024, description: 'The password of today' }),
    new_password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "The new password: 12 to 128 characters, not the e-mail nor the product's name",
    }),
  },
  {
    $id: 'PasswordChange',
    additionalProperties: false,
    examples: [
      { current_password: 'correct horse battery staple', new_password: 'a longer and fresher passphrase' },
    ],
  },
);

const sessionExample = {
  id: 12,
  current: true,
  method: 'password',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  created_at: '2026-03-09T08:02:11.000Z',
  last_seen_at: '2026-03-09T09:15:40.000Z',
  expires_at: '2026-03-09T20:02:11.000Z',
};

const OwnSession = Type.Object(
  {
    id: Id,
    current: Type.Boolean({ description: 'The session of this request' }),
    method: StringEnum(['password', 'oidc', 'link'], {
      description: 'How it signed in: password, the identity provider, or a one-time link',
    }),
    user_agent: Nullable(Type.String(), {
      description: "The browser's User-Agent at sign-in (200 characters)",
    }),
    created_at: { ...Timestamp, description: 'Signed in (or renewed by a password change)' },
    last_seen_at: { ...Timestamp, description: 'Last used, to the minute' },
    expires_at: { ...Timestamp, description: 'Ends at the latest (SESSION_MAX_HOURS after sign-in)' },
  },
  { $id: 'OwnSession', additionalProperties: false, examples: [sessionExample] },
);

const OwnSessionList = Type.Object(
  { sessions: Type.Array(Ref(OwnSession), { maxItems: SESSIONS_LISTED_AT_MOST }) },
  {
    $id: 'OwnSessionList',
    additionalProperties: false,
    examples: [{ sessions: [sessionExample] }],
  },
);

const SessionParams = Type.Object({ session_id: Id }, { additionalProperties: false });

export const accountSchemas = [PasswordChange, OwnSession, OwnSessionList];

/** A person's own account: their password and their sessions. */
export const accountRoutes: FastifyPluginAsyncTypebox<{
  config: Config;
  attempts: PasswordAttempts;
}> = async (app, { config, attempts }) => {
  const settings = { idleMs: config.people.sessionIdleMs, maxMs: config.people.sessionMaxMs };

  app.put(
    '/admin/session/password',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'changePassword',
        summary: 'Change my password',
        description:
          'A person signed in changes their own password: `current_password` must be right (else 403 ' +
          '`current_password_wrong`, counted like a failed sign-in: past `SIGN_IN_FAILURES_PER_ACCOUNT` per ' +
          'window, 429), `new_password` follows the rules (12 to 128 characters, not the e-mail nor the ' +
          "product's name, not a common password: 400 naming `/new_password`). Every session of the person " +
          'ends, this one included, and a new session takes its place: the answer sets its cookie (a new ' +
          'secret, the same end of life). With an API key: 403 `person_only`.',
        body: Ref(PasswordChange),
        response: {
          204: { ...NoContent, description: 'Changed; the cookie of the new session is set' },
          ...problemResponses('person_only', 'current_password_wrong', 'rate_limited', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const passwords = { current: request.body.current_password, next: request.body.new_password };
      const session = await changeOwnPassword(app.db, writeContextOf(request), passwords, attempts);
      setSessionCookie(request, reply, session.secret, session.expiresAt);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/session/sessions',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'listMySessions',
        summary: 'List my sessions',
        description:
          "The signed-in person's sessions that have not ended, newest first (at most " +
          `${SESSIONS_LISTED_AT_MOST}), \`current\` marking this one. Never a session's secret. An API key ` +
          'has none: an empty list.',
        response: {
          200: { ...Ref(OwnSessionList), description: 'My sessions' },
          ...problemResponses(),
        },
      },
    },
    async (request) => {
      const sessions = await listOwnSessions(app.db, request.principal, settings, app.now());
      return {
        sessions: sessions.map((session) => ({
          id: session.id,
          current: session.current,
          method: session.method,
          user_agent: session.userAgent,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
        })),
      };
    },
  );

  app.delete(
    '/admin/session/sessions/:session_id',
    {
      config: { permission: 'account' },
      schema: {
        tags: ['session'],
        operationId: 'endMySession',
        summary: 'End one of my sessions',
        description:
          "Ends one of the signed-in person's sessions, on every instance from its next request (this one " +
          "too: then the cookie is cleared, as by signing out). Another person's session, or one that " +
          'ended: 404 `session_not_found`; an API key has no sessions.',
        params: SessionParams,
        response: {
          204: NoContent,
          ...problemResponses('session_not_found'),
        },
      },
    },
    async (request, reply) => {
      await endOwnSession(app.db, request.principal, request.params.session_id);
      if (request.params.session_id === request.principal.sessionId) clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
};
