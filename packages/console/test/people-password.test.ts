/**
 * A person in the console, in Chromium, on SQLite and PostgreSQL: the
 * invitation's link page (the NIST length rule shown), the password sign-in
 * (a wrong password refused), the facility switcher by name, My account with
 * the person's roles, sign-out and sign-out everywhere.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertAccessible, assertNoPageProblems, describeConsole, screenshot } from './browser.js';
import {
  ADMIN,
  acceptInvitation,
  invitePerson,
  namedFacility,
  PASSWORD,
  signInWithPassword,
} from './people.js';

describeConsole(
  'console: a person signs in with a password',
  ({ api, consoleUrl, newPage }) => {
    it('sets the password from the invitation, signs in and out, and shows their roles', async () => {
      const riverside = await namedFacility(api, 'Riverside');
      const harbour = await namedFacility(api, 'Harbour');
      const dana = await invitePerson(api, 'Dana Reyes', [
        { facility_id: riverside.id, role: 'manager' },
        { facility_id: harbour.id, role: 'viewer' },
      ]);
      const page = await newPage();
      await page.goto(`${consoleUrl()}${dana.link}`);
      await page.getByRole('heading', { name: 'Welcome: choose your password' }).waitFor();
      await page.getByText('12 to 128 characters').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('too short');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByText('At least 12 characters (9 so far)').waitFor();
      await assertAccessible(page, 'invitation link');
      await screenshot(page, 'link-invitation');
      // The service's own rules too: not the e-mail address.
      await page.getByLabel('New password', { exact: true }).fill(dana.email);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.locator('.field-error').waitFor();
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      // Facilities by name, the person's only.
      await page.getByRole('link', { name: riverside.name }).waitFor();
      const offered = await page
        .getByRole('list', { name: 'Your facilities' })
        .getByRole('link')
        .allTextContents();
      assert.deepEqual(offered.sort(), [harbour.name, riverside.name].sort());
      assert.equal((await api.get(`/admin/staff/${dana.id}`, ADMIN)).body.state, 'active');

      // The link works once.
      await page.goto(`${consoleUrl()}${dana.link}`);
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /link/i);

      await page.goto(consoleUrl());
      await page.getByRole('link', { name: 'Dana Reyes' }).click();
      await page.getByRole('heading', { name: 'My account' }).waitFor();
      const roles = await page.getByRole('table', { name: 'My roles' }).getByRole('row').allTextContents();
      assert.ok(
        roles.some((row) => row.includes(riverside.name) && row.includes('Manager')),
        roles.join(' | '),
      );
      assert.ok(
        roles.some((row) => row.includes(harbour.name) && row.includes('Viewer')),
        roles.join(' | '),
      );
      await assertAccessible(page, 'my account');
      await screenshot(page, 'my-account');
      await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByLabel('E-mail').waitFor();
      assert.equal((await api.get('/admin/session', { cookie: await cookieOf(page) })).status, 401);

      await page.getByLabel('E-mail').fill(dana.email);
      await page.getByLabel('Password').fill('not the password at all');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('The e-mail or the password is not right').waitFor();
      await signInWithPassword(page, consoleUrl(), dana.email);
      // The switcher names the facilities; choosing one opens it.
      await page.getByRole('link', { name: riverside.name }).click();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await page.getByLabel('Facility', { exact: true }).selectOption({ label: harbour.name });
      await page.waitForURL(new RegExp(`#/f/${harbour.id}/members`));
      await screenshot(page, 'person-in-facility');

      await page.getByRole('link', { name: 'Dana Reyes' }).click();
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByLabel('E-mail').waitFor();
      assertNoPageProblems(page);
    });

    it('lists my sessions, ends another one, and changes my password', async () => {
      const gym = await namedFacility(api, 'Lakeside');
      const lee = await invitePerson(api, 'Lee Sessions', [{ facility_id: gym.id, role: 'viewer' }]);
      const here = await newPage();
      await acceptInvitation(here, consoleUrl(), lee.link);
      const there = await newPage();
      await signInWithPassword(there, consoleUrl(), lee.email);
      await here.getByRole('link', { name: 'Lee Sessions' }).click();
      const sessions = here.getByRole('table', { name: 'My sessions' });
      await sessions.getByText('This session').waitFor();
      await sessions.getByRole('button', { name: /^End/ }).waitFor();
      assert.equal(await sessions.getByRole('row').count(), 3);
      await assertAccessible(here, 'my sessions');
      await screenshot(here, 'my-sessions');
      await sessions.getByRole('button', { name: /^End/ }).click();
      await here.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
      await here.getByText('Session ended.').waitFor();
      await there.getByRole('link', { name: 'Lee Sessions' }).click();
      await there.getByText('Your session ended. Please sign in again.').waitFor();

      await here.getByLabel('Current password').fill('not my password at all');
      await here.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
      await here.getByRole('button', { name: 'Change password' }).click();
      await here.getByRole('alert').waitFor();
      await here.getByLabel('Current password').fill(PASSWORD);
      await here.getByRole('button', { name: 'Change password' }).click();
      await here.getByText('Password changed. Your other sessions ended.').waitFor();
      // The renewed session goes on working.
      await here.getByRole('link', { name: 'Facilities' }).click();
      await here.getByRole('link', { name: gym.name }).first().waitFor();
      await here.getByRole('button', { name: 'Sign out' }).click();
      await here.getByLabel('E-mail').fill(lee.email);
      await here.getByLabel('Password').fill('a brand new passphrase');
      await here.getByRole('button', { name: 'Sign in', exact: true }).click();
      await here.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      for (const page of [here, there]) assertNoPageProblems(page);
    });
  },
  { startAt: new Date().toISOString() },
);

async function cookieOf(page: import('playwright-core').Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}
