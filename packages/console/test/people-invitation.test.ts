/**
 * An owner's day in Chromium, on SQLite and PostgreSQL, with e-mail through
 * a real SMTP server on loopback: a facility added and edited by name, a
 * manager invited on the Staff screen, who follows the link in the e-mail,
 * chooses a password and lands in their facility; a reset link e-mailed and
 * followed, and "forgot password" by the person alone; the person
 * disabled, and signed out at their next request.
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { startSmtpServer } from '../../../src/infrastructure/mail/smtp-server.fixtures.js';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';
import { PASSWORD } from './people.js';

const smtp = await startSmtpServer();
after(() => smtp.close());

describeConsole(
  'console: an owner invites a manager by e-mail',
  ({ api, consoleUrl, newPage }) => {
    it('adds a facility, invites a manager who follows the e-mailed link, resets and disables them', async () => {
      const owner = await newPage();
      await signIn(owner, consoleUrl(), ADMIN_KEY);
      await owner
        .getByRole('navigation', { name: 'Administration' })
        .getByRole('link', { name: 'Facilities' })
        .click();
      await owner.getByRole('link', { name: 'Add a facility' }).click();
      const name = `Riverside ${api.dialect}`;
      await owner.getByLabel('Name').fill(name);
      await owner.getByLabel('Time zone').fill('Europe/London');
      await owner.getByLabel('Currency').fill('GBP');
      await owner.getByRole('button', { name: 'Add facility' }).click();
      await owner.getByRole('heading', { name }).waitFor();
      await owner.getByRole('button', { name: 'Edit' }).click();
      await owner.getByLabel('Address').fill('12 Quay Street, Bristol');
      await owner.getByRole('button', { name: 'Save facility' }).click();
      await owner.getByText('Facility saved.').waitFor();
      await owner.getByText('12 Quay Street, Bristol').waitFor();
      await screenshot(owner, 'facility-page');
      const facilityId = Number(/#\/facilities\/(\d+)/.exec(owner.url())?.[1]);
      assert.equal((await api.get(`/admin/facilities/${facilityId}/policy`, bearer())).body.currency, 'GBP');

      await owner.getByRole('link', { name: 'Staff' }).click();
      await owner.getByRole('link', { name: 'Invite a person' }).click();
      const email = `mia.${api.dialect}@example.test`;
      await owner.getByLabel('E-mail').fill(email);
      await owner.getByLabel('Name').fill('Mia Manager');
      await owner.getByRole('button', { name: 'Add a role' }).click();
      await owner.getByLabel('Facility of role 1').selectOption({ label: name });
      await owner.getByLabel('Role 1', { exact: true }).selectOption({ label: 'Manager' });
      await assertAccessible(owner, 'invite form');
      await screenshot(owner, 'staff-invite');
      await owner.getByRole('button', { name: 'Send invitation' }).click();
      await owner.getByText(`The invitation link was e-mailed to Mia Manager (${email})`).waitFor();

      // Mia, in a browser of her own, follows the link she received.
      const invitation = await smtp.waitForMessage(email);
      const mia = await newPage();
      await mia.goto(invitation.links[0] ?? '');
      await mia.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await mia.getByRole('button', { name: 'Set password and sign in' }).click();
      await mia.getByRole('link', { name }).click();
      await mia.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await mia.getByRole('link', { name: 'Mia Manager' }).waitFor();
      assert.equal(await mia.getByRole('link', { name: 'Webhooks' }).count(), 0);

      await owner.getByRole('link', { name: 'Open Mia Manager' }).click();
      await owner.getByRole('heading', { name: 'Mia Manager' }).waitFor();
      await owner.getByText('active', { exact: true }).waitFor();
      await owner.getByRole('button', { name: 'Send password reset link' }).click();
      await owner.getByText(`The password reset link was e-mailed to Mia Manager`).waitFor();
      const reset = await smtp.waitForMessage(email);
      const later = await newPage();
      await later.goto(reset.links[0] ?? '');
      await later.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await later.getByLabel('New password', { exact: true }).fill(`${PASSWORD} again`);
      await later.getByRole('button', { name: 'Set new password and sign in' }).click();
      await later.getByRole('heading', { name: 'Choose a facility' }).waitFor();

      // Forgot password, by Mia alone: offered because e-mail is set up.
      const forgot = await newPage();
      await forgot.goto(consoleUrl());
      await forgot.getByRole('button', { name: 'Forgot your password?' }).click();
      await forgot.getByLabel('E-mail').fill(email);
      await forgot.getByRole('button', { name: 'Send reset link' }).click();
      await forgot.getByText(`If ${email} belongs to an active account`).waitFor();
      await screenshot(forgot, 'forgot-password');
      const forgotten = await smtp.waitForMessage(email);
      await forgot.goto(forgotten.links[0] ?? '');
      await forgot.getByLabel('New password', { exact: true }).fill(`${PASSWORD} third`);
      await forgot.getByRole('button', { name: 'Set new password and sign in' }).click();
      await forgot.getByRole('heading', { name: 'Choose a facility' }).waitFor();

      await owner.getByRole('button', { name: 'Disable' }).click();
      await owner.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
      await owner.getByText('Mia Manager is disabled: their sessions ended.').waitFor();
      await screenshot(owner, 'staff-page');
      await mia.getByRole('link', { name: 'Plans' }).click();
      await mia.getByText('Your session ended. Please sign in again.').waitFor();
      for (const page of [owner, mia, later, forgot]) assertNoPageProblems(page);
    });
  },
  {
    startAt: new Date().toISOString(),
    config: { mail: { smtpUrl: smtp.url, from: 'facility-admin <staff@example.test>' } },
  },
);

function bearer() {
  return { authorization: `Bearer ${ADMIN_KEY}` };
}
