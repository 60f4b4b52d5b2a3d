import nodemailer from 'nodemailer';
import { type Config, isLoopbackHost, type MailSettings } from '../../config.js';

export interface MailMessage {
  /** One address. */
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text`, when given. */
  html?: string;
}

/** Sends e-mail: invitations and password resets. */
export interface Mailer {
  /** Resolves once the server accepted the message; rejects with a MailDeliveryError. */
  send(message: MailMessage): Promise<void>;
}

/**
 * Why a message was not sent: `unreachable` (no connection, TLS failed, timed out),
 * `authentication` (the server refused the user and password of SMTP_URL), `rejected` (it
 * refused the sender, the recipient or the message), `failed` (anything else). The message
 * names the server and the SMTP reply code, never the password nor the recipient (so that it
 * may be logged as it is).
 */
export type MailFailure = 'unreachable' | 'authentication' | 'rejected' | 'failed';

export class MailDeliveryError extends Error {
  readonly reason: MailFailure;
  /** The server's SMTP reply code (535, 550…), when it answered one. */
  readonly smtpCode: number | undefined;
  /** nodemailer's error code (EAUTH, ECONNECTION…). */
  readonly code: string | undefined;
  constructor(reason: MailFailure, server: string, code: string | undefined, smtpCode: number | undefined) {
    const detail = [code, smtpCode].filter((part) => part !== undefined).join(', ');
    super(`e-mail not sent: ${WHAT_HAPPENED[reason]} (${server}${detail ? `; ${detail}` : ''})`);
    this.name = 'MailDeliveryError';
    this.reason = reason;
    this.code = code;
    this.smtpCode = smtpCode;
  }
}

const WHAT_HAPPENED: Record<MailFailure, string> = {
  unreachable: 'the SMTP server could not be reached',
  authentication: 'the SMTP server refused the user and password of SMTP_URL',
  rejected: 'the SMTP server refused the message',
  failed: 'the SMTP server could not take the message',
};

const UNREACHABLE = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ETIMEDOUT', 'ETLS', 'EREQUIRETLS', 'EPROXY']);

/**
 * A request that sends an invitation waits for the server: these bound that wait. nodemailer's
 * own defaults (2 minutes to connect, 10 minutes of silence) suit a batch job, not a request.
 */
const TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};

/** The mailer of SMTP_URL and MAIL_FROM, or undefined when SMTP_URL is not set. */
export function mailerFrom(config: Pick<Config, 'mail'>): Mailer | undefined {
  return config.mail ? smtpMailer(config.mail) : undefined;
}

export function smtpMailer(settings: MailSettings): Mailer {
  const url = new URL(settings.smtpUrl);
  const server = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
  const transport = nodemailer.createTransport({
    // nodemailer reads host, port, TLS and the percent-decoded user and password from the URL,
    // and options from its query (?requireTLS=false…), which take precedence over these.
    url: settings.smtpUrl,
    ...TIMEOUTS,
    // smtp:// with a password to another machine: STARTTLS or nothing, so the password never
    // crosses the network in clear (nodemailer would otherwise go on without TLS when the server
    // does not offer it). A relay on the same machine may take it without.
    requireTLS: url.protocol === 'smtp:' && url.username !== '' && !isLoopbackHost(url.hostname),
    // The messages are text the service writes: nothing in them is to be read from disk or fetched.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: settings.from, ...message });
      } catch (error) {
        throw deliveryError(error, server);
      }
    },
  };
}

/** nodemailer's error, reduced to what may be logged: its text can quote the server's reply. */
function deliveryError(error: unknown, server: string): MailDeliveryError {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const errorCode = typeof code === 'string' ? code : undefined;
  const smtpCode = typeof responseCode === 'number' ? responseCode : undefined;
  let reason: MailFailure = 'failed';
  if (errorCode === 'EAUTH' || errorCode === 'ENOAUTH') reason = 'authentication';
  else if (errorCode !== undefined && UNREACHABLE.has(errorCode)) reason = 'unreachable';
  else if (errorCode === 'EENVELOPE' || (smtpCode !== undefined && smtpCode >= 500)) reason = 'rejected';
  return new MailDeliveryError(reason, server, errorCode, smtpCode);
}
