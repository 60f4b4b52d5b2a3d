import assert from 'node:assert/strict';
import { type AddressInfo, connect, createServer } from 'node:net';
import { after, test } from 'node:test';
import { bearer } from '../../../test/access-table.js';
import { eventually } from '../../../test/eventually.js';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { inject } from '../../../test/inject.js';
import { startSmtpServer } from '../../infrastructure/mail/smtp-server.fixtures.js';
import { insertStaff } from '../staff/staff.repository.js';
import { PASSWORD, SAME_ORIGIN, sessionCookieOf, signedUpPerson, tokenOf } from './people.fixtures.js';

const ADMIN_KEY = 'password-reset-test-admin-key';
const smtp = await startSmtpServer();
after(() => smtp.close());

/**
 * A door in front of the SMTP server: a connection waits at it, and the server does not greet,
 * until the test lets it through; one that waits too long is given up by the mailer (10 s).
 */
const door = { waiting: [] as (() => void)[] };
const doorServer = createServer((client) => {
  door.waiting.push(() => {
    const server = connect(smtp.port, '127.0.0.1');
    client.pipe(server).pipe(client);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
  });
});
await new Promise<void>((resolve) => doorServer.listen(0, '127.0.0.1', resolve));
after(() => new Promise((resolve) => doorServer.close(resolve)));

describeEachDialect(
  'session: forgot password, with e-mail',
  (api) => {
    const signedUp = (facility: number) => signedUpPerson(api, ADMIN_KEY, facility, smtp);
    const forgot = (email: string, headers: Record<string, string> = SAME_ORIGIN) =>
      api.post('/admin/session/password-reset', { email }, headers);

    test('the sign-in options offer it', async () => {
      assert.equal((await api.get('/admin/sign-in-options')).body.password_reset, true);
    });

    test('an active person gets a link by e-mail; it sets a new password and signs them in', async () => {
      const person = await signedUp(api.newFacility());
      const answer = await forgot(person.email.toUpperCase());
      assert.equal(answer.status, 202, answer.text);
      const mail = await smtp.waitForMessage(person.email);
      assert.match(mail.subject, /reset/i);
      const link = mail.links.find((url) => url.includes('purpose=password_reset'));
      assert.ok(link, mail.text);
      const used = await api.post(
        '/admin/session/link',
        { token: tokenOf(link), password: 'my brand new passphrase' },
        SAME_ORIGIN,
      );
      assert.equal(used.status, 200, used.text);
      assert.ok(sessionCookieOf(used));
      assertProblem(
        await api.post('/admin/session', { email: person.email, password: PASSWORD }, SAME_ORIGIN),
        401,
        'unauthenticated',
      );
    });

    test('an unknown e-mail, an invited and a disabled person get the same answer, and no e-mail', async () => {
      const facility = api.newFacility();
      const invited = `invited${facility}@example.test`;
      await api.post('/admin/staff', { email: invited, name: 'Invited', roles: [] }, bearer(ADMIN_KEY));
      const disabled = await signedUp(facility);
      await api.patch(`/admin/staff/${disabled.id}`, { state: 'disabled' }, bearer(ADMIN_KEY));
      const active = await signedUp(facility);
      const answers = [];
      for (const email of [`nobody${facility}@example.test`, invited, disabled.email, active.email]) {
        answers.push(await forgot(email));
      }
      for (const answer of answers) {
        assert.deepEqual([answer.status, answer.text], [answers[3].status, answers[3].text]);
      }
      // Requests are handled in turn: once the last one's e-mail is in, the others were handled.
      await smtp.waitForMessage(active.email);
      const to = smtp.messages
        .filter((message) => message.links.some((url) => url.includes('purpose=password_reset')))
        .flatMap((message) => message.to);
      assert.ok(to.includes(active.email));
      for (const email of [`nobody${facility}@example.test`, invited, disabled.email]) {
        assert.equal(to.includes(email), false, `no e-mail to ${email}`);
      }
    });

    test('at most 3 requests per e-mail and window, whoever it is: then 429', async () => {
      const email = `flooded${api.newFacility()}@example.test`;
      for (let i = 0; i < 3; i++) assert.equal((await forgot(email.toUpperCase())).status, 202);
      const limited = assertProblem(await forgot(email), 429, 'rate_limited');
      assert.match(limited.detail, /password reset requests for this account/);
      assert.equal((await forgot(`other.${email}`)).status, 202, 'another e-mail is not limited');
    });

    test('a request from another site is refused', async () => {
      const person = await signedUp(api.newFacility());
      assertProblem(
        await forgot(person.email, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
        403,
        'cross_site_request',
      );
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    mail: { smtpUrl: smtp.url, from: 'facility-admin <staff@example.test>' },
  },
);

describeEachDialect(
  'session: forgot password, with a slow e-mail server',
  (api) => {
    test('the answer waits neither for the look-up nor for the e-mail', async () => {
      const email = `slow${api.newFacility()}@example.test`;
      await insertStaff(api.app.db, { email, name: 'Slow Mail', state: 'active' }, new Date().toISOString());
      const before = door.waiting.length;
      const answer = await api.post('/admin/session/password-reset', { email }, SAME_ORIGIN);
      assert.equal(answer.status, 202, answer.text);
      // Only now may the e-mail pass: had the answer waited for it, the mailer would have given up.
      const through = await eventually('the e-mail to start', () => door.waiting[before]);
      through();
      const mail = await smtp.waitForMessage(email);
      assert.ok(
        mail.links.some((url) => url.includes('purpose=password_reset')),
        mail.text,
      );
    });
  },
  {
    authMode: 'api-key',
    adminApiKey: ADMIN_KEY,
    mail: {
      smtpUrl: `smtp://127.0.0.1:${(doorServer.address() as AddressInfo).port}`,
      from: 'staff@example.test',
    },
  },
);

describeEachDialect(
  'session: forgot password, without e-mail',
  (api) => {
    test('the sign-in options do not offer it; a request is taken (202) and nothing is sent', async () => {
      assert.equal((await api.get('/admin/sign-in-options')).body.password_reset, false);
      const person = await signedUpPerson(api, ADMIN_KEY, api.newFacility());
      const answer = await api.post('/admin/session/password-reset', { email: person.email }, SAME_ORIGIN);
      assert.equal(answer.status, 202, answer.text);
      const links = await api.app.db
        .selectFrom('staff_links')
        .select('purpose')
        .where('staff_user_id', '=', person.id)
        .where('purpose', '=', 'password_reset')
        .execute();
      assert.deepEqual(links, []);
    });

    test('past AUTH_FAILURE_LIMIT requests from one address: 429, whatever the e-mail', async () => {
      const fromOneAddress = (email: string) =>
        inject(api.app, {
          method: 'POST',
          url: '/admin/session/password-reset',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email }),
          remoteAddress: '203.0.113.9',
        });
      for (let i = 0; i < 5; i++) {
        const answer = await fromOneAddress(`a${i}@example.test`);
        assert.equal(answer.status, 202, answer.text);
      }
      const limited = assertProblem(await fromOneAddress('a5@example.test'), 429, 'rate_limited');
      assert.match(limited.detail, /from this address/);
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_KEY, authFailureLimit: 5 },
);
