/**
 * What each role sees, in Chromium, on SQLite and PostgreSQL: a front-desk
 * person gets no control for staff, keys, plans, policy, webhooks or
 * facilities (and the screens opened by address refuse), but enrols and
 * edits members; the audit trail names the person who did it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertAccessible, assertNoPageProblems, describeConsole, screenshot } from './browser.js';
import { ADMIN, acceptInvitation, invitePerson, namedFacility } from './people.js';

describeConsole(
  'console: what a role may see and do',
  ({ api, consoleUrl, newPage }) => {
    it('gives a front-desk person no staff, key, plan, policy or facility control, and names them in the audit', async () => {
      const gym = await namedFacility(api, 'Front Street Gym');
      const plan = await api.post(`/admin/facilities/${gym.id}/plans`, { name: 'Monthly' }, ADMIN);
      assert.equal(plan.status, 201, plan.text);
      const sam = await invitePerson(api, 'Sam Desk', [{ facility_id: gym.id, role: 'front_desk' }]);
      const page = await newPage();
      await acceptInvitation(page, consoleUrl(), sam.link);
      const administration = page.getByRole('navigation', { name: 'Administration' });
      assert.deepEqual(await administration.getByRole('link').allTextContents(), ['Facilities']);

      await page.getByRole('link', { name: gym.name }).click();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      const screens = await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link')
        .allTextContents();
      assert.deepEqual(screens, ['Members', 'Front desk', 'Plans', 'Policy', 'Activity', 'Import & export']);
      // Members: enrolled and edited by the front desk, not removed.
      await page.getByRole('link', { name: 'Enrol a member' }).click();
      await page.getByLabel('First name').fill('Grace');
      await page.getByRole('button', { name: 'Enrol', exact: true }).click();
      await page.getByRole('heading', { name: 'Grace' }).waitFor();
      await page.getByRole('button', { name: 'Edit' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Remove' }).count(), 0);
      await screenshot(page, 'front-desk-member');

      await page.getByRole('link', { name: 'Plans' }).click();
      await page.getByRole('link', { name: 'Monthly' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'New plan' }).count(), 0);
      await page.getByRole('link', { name: 'Policy' }).click();
      await page.getByLabel('Currency').waitFor();
      assert.equal(await page.getByLabel('Currency').isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Save policy' }).count(), 0);
      await page.getByRole('link', { name: 'Import & export' }).click();
      await page.getByText('Importing members needs the manager or owner role here').waitFor();

      await page.getByRole('link', { name: 'Activity' }).click();
      await page
        .getByText(/Sam Desk created/)
        .first()
        .waitFor();

      await administration.getByRole('link', { name: 'Facilities' }).click();
      await page.getByRole('link', { name: gym.name }).first().waitFor();
      assert.equal(await page.getByRole('link', { name: 'Add a facility' }).count(), 0);
      await page.getByRole('link', { name: gym.name }).first().click();
      await page.getByRole('heading', { name: gym.name }).waitFor();
      assert.equal(await page.getByRole('button', { name: /Edit|Archive/ }).count(), 0);
      await assertAccessible(page, 'facility as front desk');

      await page.goto(`${consoleUrl()}#/staff`);
      await page.getByText('Only owners manage staff.').waitFor();
      assert.equal(await page.getByRole('link', { name: 'Invite a person' }).count(), 0);
      await page.goto(`${consoleUrl()}#/keys`);
      await page.getByText('Only owners manage API keys.').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Create a key' }).count(), 0);
      await screenshot(page, 'front-desk-keys');
      assertNoPageProblems(page);
    });
  },
  { startAt: new Date().toISOString() },
);
