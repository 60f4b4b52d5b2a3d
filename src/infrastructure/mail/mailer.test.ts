import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type ConfigError, loadConfig } from '../../config.js';
import { MailDeliveryError, mailerFrom, smtpMailer } from './mailer.js';
import { type SmtpTestServer, startSmtpServer } from './smtp-server.fixtures.js';

const from = 'Riverside Gym staff <staff@riverside.example>';

describe('mail over SMTP', () => {
  let open: SmtpTestServer;
  let guarded: SmtpTestServer;
  // Characters that must be percent-encoded in a URL, as real passwords have.
  const password = 'p@ss/w:rd%42 and more';
  before(async () => {
    open = await startSmtpServer({ refuseRecipient: (address) => address.startsWith('nobody@') });
    guarded = await startSmtpServer({ user: 'mailer', password });
  });
  after(async () => {
    await open.close();
    await guarded.close();
  });

  test('no SMTP_URL: no mailer (the console shows the link instead)', () => {
    assert.equal(mailerFrom(loadConfig({})), undefined);
  });

  test('a message sent through nodemailer arrives with its subject, text and link', async () => {
    const mailer = mailerFrom(loadConfig({ SMTP_URL: open.url, MAIL_FROM: from }));
    assert.ok(mailer);
    await mailer.send({
      to: 'ana@example.test',
      subject: 'You are invited to Riverside Gym',
      text: 'Dana invited you.\n\nSet your password: https://admin.example.test/console/invite#t=abc123\n',
      html: '<p>Dana invited you.</p>',
    });
    const mail = await open.waitForMessage('ana@example.test');
    assert.equal(mail.subject, 'You are invited to Riverside Gym');
    assert.match(mail.text, /Dana invited you\./);
    assert.deepEqual(mail.links, ['https://admin.example.test/console/invite#t=abc123']);
    assert.equal(mail.html, '<p>Dana invited you.</p>');
    assert.equal(mail.from, 'staff@riverside.example');
  });

  test('a long link in a long text arrives whole (the transfer encoding is undone)', async () => {
    const link = `https://admin.example.test/console/reset#t=${'x'.repeat(150)}`;
    await smtpMailer({ smtpUrl: open.url, from }).send({
      to: 'ben@example.test',
      subject: 'Reset your password',
      text: `${'Hello, '.repeat(30)}\n${link}\n`,
    });
    assert.deepEqual((await open.waitForMessage('BEN@example.test')).links, [link]);
  });

  test('the user and password of SMTP_URL are used, percent-decoded', async () => {
    await smtpMailer({ smtpUrl: guarded.url, from }).send({
      to: 'cy@example.test',
      subject: 'Hi',
      text: 'Hi',
    });
    assert.equal((await guarded.waitForMessage('cy@example.test')).subject, 'Hi');
  });

  test('a wrong password is an authentication failure, and the error shows no password', async () => {
    const url = new URL(guarded.url);
    url.password = encodeURIComponent('not the password');
    const error = await smtpMailer({ smtpUrl: url.href, from })
      .send({ to: 'cy@example.test', subject: 'Hi', text: 'Hi' })
      .then(
        () => assert.fail('sent'),
        (thrown: unknown) => thrown,
      );
    assert.ok(error instanceof MailDeliveryError);
    assert.equal(error.reason, 'authentication');
    assert.equal(error.smtpCode, 535);
    assert.match(error.message, /refused the user and password of SMTP_URL \(127\.0\.0\.1:\d+; EAUTH, 535\)/);
    const shown = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    for (const secret of ['not the password', 'not%20the%20password', password]) {
      assert.equal(shown.includes(secret), false);
    }
  });

  test('a refused recipient is a rejection', async () => {
    const error = await smtpMailer({ smtpUrl: open.url, from })
      .send({ to: 'nobody@example.test', subject: 'Hi', text: 'Hi' })
      .catch((thrown: unknown) => thrown);
    assert.ok(error instanceof MailDeliveryError);
    assert.equal(error.reason, 'rejected');
    assert.equal(error.smtpCode, 550);
  });

  test('a server that is not there is unreachable', async () => {
    const port = await closedPort();
    const error = await smtpMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from })
      .send({ to: 'ana@example.test', subject: 'Hi', text: 'Hi' })
      .catch((thrown: unknown) => thrown);
    assert.ok(error instanceof MailDeliveryError);
    assert.equal(error.reason, 'unreachable');
    assert.match(error.message, /could not be reached/);
  });

  test('SMTP_URL and MAIL_FROM are checked at start, without showing the URL', () => {
    const secretUrl = 'http://user:hunter2-secret@mail.example.test';
    assert.throws(
      () => loadConfig({ SMTP_URL: secretUrl, MAIL_FROM: from }),
      (error: ConfigError) =>
        /SMTP_URL must be smtp:/.test(error.message) && !error.message.includes('hunter2'),
    );
    assert.throws(() => loadConfig({ SMTP_URL: open.url }), /MAIL_FROM must be set when SMTP_URL is/);
    assert.throws(
      () => loadConfig({ SMTP_URL: open.url, MAIL_FROM: 'staff' }),
      /MAIL_FROM must be an e-mail/,
    );
    assert.equal(
      loadConfig({ SMTP_URL: open.url, MAIL_FROM: 'staff@example.test' }).mail?.from,
      'staff@example.test',
    );
  });
});

/** A port on which nothing listens: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
