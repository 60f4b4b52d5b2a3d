import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import { clientAddressOf } from '../../http/pipeline/auth-failure-limit.js';
import { isSameOrigin } from '../../http/pipeline/session-cookie.js';
import { BODY_PROBLEMS, problemResponses } from '../../http/vocabulary/responses.js';
import { Ref } from '../../http/vocabulary/schemas.js';
import { linkDeliveryFor } from '../staff/link-delivery.js';
import { sendForgottenPasswordLink } from '../staff/staff-account.service.js';
import { AccountFailures } from './account-failures.js';
import './session.problems.js';

/** Reset e-mails to one address per AUTH_FAILURE_WINDOW_MS: enough to retry, too few to flood an inbox. */
export const PASSWORD_RESETS_PER_ACCOUNT = 3;
/** Requests waiting to be looked up and e-mailed; past it a request is dropped (and logged). */
const WAITING_AT_MOST = 100;

const PasswordResetRequest = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: 'The e-mail the person signs in with' }),
  },
  {
    $id: 'PasswordResetRequest',
    additionalProperties: false,
    examples: [{ email: 'dana.reyes@riverside.example' }],
  },
);

export const passwordResetSchemas = [PasswordResetRequest];

/**
 * "Forgot password": the answer is 202 before anything is looked up, so
 * that neither it nor its time tells whether the e-mail has an account; the
 * look-up and the e-mail follow, one request at a time.
 */
export const passwordResetRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  const linksFor = linkDeliveryFor(config);
  const perAccount = new AccountFailures(
    PASSWORD_RESETS_PER_ACCOUNT,
    config.authFailureWindowMs,
    'password reset requests for this account',
  );
  const perAddress =
    config.authFailureLimit === 0
      ? undefined
      : new AccountFailures(
          config.authFailureLimit,
          config.authFailureWindowMs,
          'password reset requests from this address',
        );
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  app.addHook('onClose', async () => queue);

  app.post(
    '/admin/session/password-reset',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        operationId: 'requestPasswordReset',
        summary: 'Forgot password: e-mail me a reset link',
        description:
          'Open to anyone: when `SMTP_URL` is set and an active person has the e-mail (ignoring case), a ' +
          'one-time link to set a new password (valid `PASSWORD_RESET_VALID_MINUTES`) is e-mailed to them. ' +
          'The answer is 202 at once whatever the e-mail, and nothing is sent without `SMTP_URL` ' +
          '(`GET /admin/sign-in-options` says `password_reset: false` then). At most ' +
          `${PASSWORD_RESETS_PER_ACCOUNT} requests per e-mail and \`AUTH_FAILURE_LIMIT\` per address per ` +
          '`AUTH_FAILURE_WINDOW_MS`: 429 `rate_limited`.',
        body: Ref(PasswordResetRequest),
        security: [],
        response: {
          202: Type.Null({ description: 'Taken: a link is e-mailed if the e-mail is of an active person' }),
          ...problemResponses('rate_limited', 'cross_site_request', ...BODY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      // A page of another site could otherwise fill a person's inbox from their own browser.
      if (request.headers.origin !== undefined && !isSameOrigin(request)) {
        throw new AppError('cross_site_request', 'Ask for a reset link from the console itself');
      }
      const { email } = request.body;
      const now = app.now();
      const address = clientAddressOf(request.ip);
      perAddress?.assertMayTry(address, now);
      perAccount.assertMayTry(email, now);
      perAddress?.add(address, now);
      perAccount.add(email, now);
      const links = linksFor(request);
      // Without SMTP_URL there is nothing to send, so nothing to look up either.
      if (links.mail === undefined) {
        request.log.info({ outcome: 'no_mail' }, 'password reset request');
      } else if (waiting >= WAITING_AT_MOST) {
        request.log.warn('password reset request dropped: too many waiting');
      } else {
        waiting++;
        const log = request.log;
        queue = queue
          .then(() => sendForgottenPasswordLink(app.db, links, email, app.now()))
          .then(
            (outcome) =>
              outcome === 'mail_failed'
                ? log.warn({ outcome }, 'password reset request: the e-mail was not sent')
                : log.info({ outcome }, 'password reset request'),
            (error: unknown) => log.error({ err: error }, 'password reset request failed'),
          )
          .finally(() => {
            waiting--;
          });
      }
      return reply.code(202).send(null);
    },
  );
};
