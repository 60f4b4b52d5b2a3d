import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { mailerFrom } from '../../infrastructure/mail/mailer.js';
import type { LinkDelivery } from './staff.service.js';
import type { LinkPurpose } from './staff-link.repository.js';

/**
 * How a request's links travel: they point at PUBLIC_URL (else the address
 * the request came to) and go by e-mail when SMTP_URL is set.
 */
export function linkDeliveryFor(config: Config): (request: FastifyRequest) => LinkDelivery {
  const mailer = mailerFrom(config);
  return (request) => {
    const base = config.people.publicUrl ?? `${request.protocol}://${request.host}${config.basePath}`;
    return {
      linkUrl: (purpose: LinkPurpose, secret: string) =>
        `${base}/console/#/link?purpose=${purpose}&token=${secret}`,
      mail: mailer && ((to, subject, text) => mailer.send({ to, subject, text })),
      validMs: {
        invitation: config.people.invitationValidMs,
        password_reset: config.people.passwordResetValidMs,
      },
    };
  };
}
