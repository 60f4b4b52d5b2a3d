/**
 * Signing in and out of the console in Chromium, on SQLite and PostgreSQL: a
 * key on the sign-in form (a wrong one refused beside the field), signing
 * out, a viewer key's facilities and no control that writes, and the sign-out
 * when the key is revoked while the console is open. SQLite is a file here,
 * so that the revocation comes from another connection, as the CLI's does.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openDatabase } from '../../../src/db/database.js';
import { revokeApiKey } from '../../../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../../../src/infrastructure/api-keys/api-key.service.js';
import { eventually } from '../../../test/eventually.js';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';

describeConsole(
  'console: signing in and out',
  ({ api, consoleUrl, newPage, viewerKey }) => {
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };

    it('signs in with a key, refuses a wrong one beside the field, and signs out', async () => {
      const page = await newPage();
      await page.goto(consoleUrl());
      await assertAccessible(page, 'sign-in');
      await screenshot(page, 'sign-in');
      // E-mail and password first; the key is behind a link, for integrators.
      await page.getByLabel('E-mail').waitFor();
      await page.getByRole('button', { name: 'Sign in with an API key' }).click();
      await page.getByLabel('API key').fill('fa_not-a-real-key');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('This key is not valid, or it was revoked').waitFor();
      // By keyboard alone from here: Enter submits, focus lands on each screen's heading.
      await page.getByLabel('API key').fill(ADMIN_KEY);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('facility-admin.api-key')), ADMIN_KEY);
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Choose a facility');
      await assertAccessible(page, 'facility chooser');
      await screenshot(page, 'facility-chooser');
      await page.getByLabel('Or open a facility by its id').focus();
      await page.keyboard.type(String(api.newFacility()));
      await page.keyboard.press('Enter');
      await page.getByText('No members yet.').waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Members');
      // The skip link is the first stop of the page, and leads past the header.
      const first = await page.evaluate(
        () => document.querySelector('a[href], button, input, select')?.textContent,
      );
      assert.equal(first, 'Skip to content');
      await page.getByRole('button', { name: 'Skip to content' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('facility-admin.api-key')), null);
      assertNoPageProblems(page);
    });

    it('gives a viewer key its facilities to choose from and no control that writes', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        `/admin/facilities/${facility}/members`,
        { first_name: 'Barbara' },
        auth,
      );
      const key = await viewerKey([facility]);
      const page = await newPage();
      await signIn(page, consoleUrl(), key);
      await page.getByRole('link', { name: `Facility ${facility}` }).click();
      await page.getByRole('link', { name: 'Barbara' }).click();
      await page.getByRole('heading', { name: 'Barbara' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Edit' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /Freeze|Remove|Cancel membership/ }).count(), 0);
      await page.getByRole('link', { name: 'Members' }).first().click();
      await page.getByRole('link', { name: 'Barbara' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Enrol a member' }).count(), 0);
      await page.getByRole('link', { name: 'Policy' }).click();
      await page.getByLabel('Currency').waitFor();
      assert.equal(await page.getByLabel('Currency').isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Save policy' }).count(), 0);
      assert.equal(
        (await api.get(`/admin/facilities/${facility}/members/${created.body.id}`, auth)).body.status,
        'active',
      );
      assertNoPageProblems(page);
    });

    it('signs out when its key is revoked while the console is open', async () => {
      const facility = api.newFacility();
      const { secret, key } = await createApiKey(api.app.db, {
        name: 'temp',
        role: 'admin',
        facilityIds: [facility],
      });
      const page = await newPage();
      await signIn(page, consoleUrl(), secret, facility);
      // Revoked as the CLI does, through a connection of its own (another process's, on SQLite a file).
      const cli = openDatabase(api.app.config.databaseUrl);
      try {
        await revokeApiKey(cli.db, key.id, new Date().toISOString());
      } finally {
        await cli.close();
      }
      await eventually(
        'the service refusing the revoked key',
        async () => (await api.get('/admin/session', { authorization: `Bearer ${secret}` })).status === 401,
      );
      // The next request answered 401 signs out (a load still running may already have).
      await page.evaluate(() => {
        window.location.hash = window.location.hash.replace('/members', '/plans');
      });
      await page.getByText('This key is not valid, or it was revoked').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('facility-admin.api-key')), null);
      assertNoPageProblems(page);
    });
  },
  { sqliteOnDisk: true },
);
