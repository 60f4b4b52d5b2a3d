/**
 * A real SMTP server for tests (`smtp-server`, nodemailer's own), on loopback on a free port: it
 * keeps every message it accepts, parsed (`mailparser`), so that a test can wait for the message
 * to an address and follow the link in it, as the person would.
 *
 *   const smtp = await startSmtpServer();
 *   const config = { ...loadConfig({}), mail: { smtpUrl: smtp.url, from: 'Staff <staff@example.test>' } };
 *   … the service sends an invitation to ana@example.test …
 *   const mail = await smtp.waitForMessage('ana@example.test');
 *   const link = mail.links[0];
 *   await smtp.close();
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from '../../../test/eventually.js';

export interface ReceivedMail {
  /** The envelope's sender and recipients, as the client gave them. */
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  /** Every http(s) URL in the text, in order. */
  links: string[];
}

export interface SmtpTestServer {
  port: number;
  /** An SMTP_URL that reaches this server, with its user and password when it has them. */
  url: string;
  /** Every message accepted so far, oldest first. */
  readonly messages: readonly ReceivedMail[];
  /** The oldest message to `address` not taken yet, waiting for one to arrive (15 s at most). */
  waitForMessage(address: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpTestServerOptions {
  /** Ask for this user and password (AUTH PLAIN or LOGIN); without them, anyone may send. */
  user?: string;
  password?: string;
  /** Refuse these recipients with 550, as a server refuses an unknown mailbox. */
  refuseRecipient?: (address: string) => boolean;
}

const LINK = /https?:\/\/[^\s<>"')\]]+/g;

export async function startSmtpServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const { user, password, refuseRecipient } = options;
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    // No STARTTLS: the tests speak plain SMTP on loopback, as to a relay on the same machine.
    disabledCommands: user === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: user === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (refuseRecipient?.(address.address)) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const text = parsed.text ?? '';
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : undefined,
            links: text.match(LINK) ?? [],
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials =
    user === undefined ? '' : `${encodeURIComponent(user)}:${encodeURIComponent(password ?? '')}@`;
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    messages,
    waitForMessage(address) {
      const wanted = address.toLowerCase();
      return eventually(`an e-mail to ${address}`, () => {
        const mail = messages.find(
          (message) => !taken.has(message) && message.to.some((to) => to.toLowerCase() === wanted),
        );
        if (mail) taken.add(mail);
        return mail;
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
