/**
 * The first owner, in Chromium, on SQLite and PostgreSQL: the one-time link
 * a fresh service prints opens a page that asks for the owner's e-mail, name
 * and password, and signs them in as owner of every facility.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { firstOwnerLink } from '../../../src/modules/staff/staff-sign-in.service.js';
import { assertAccessible, assertNoPageProblems, describeConsole, screenshot } from './browser.js';
import { PASSWORD } from './people.js';

describeConsole(
  'console: the first owner',
  ({ api, clock, consoleUrl, newPage }) => {
    it('creates the first owner from the printed link, who then sees every owner screen', async () => {
      const link = await firstOwnerLink(api.app.db, 3_600_000, new Date(clock.now()));
      assert.ok(link, 'no staff user yet: a first owner link');
      const page = await newPage();
      await page.goto(`${consoleUrl()}#/link?purpose=first_owner&token=${link.secret}`);
      await page.getByRole('heading', { name: 'Create the first owner' }).waitFor();
      await page.getByLabel('E-mail').fill('owner@example.test');
      await page.getByLabel('Name').fill('Olga Owner');
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await assertAccessible(page, 'first owner link');
      await screenshot(page, 'link-first-owner');
      await page.getByRole('button', { name: 'Create owner and sign in' }).click();
      await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      const administration = page.getByRole('navigation', { name: 'Administration' });
      assert.deepEqual(await administration.getByRole('link').allTextContents(), [
        'Facilities',
        'Staff',
        'API keys',
      ]);
      await page.getByRole('link', { name: 'Olga Owner' }).click();
      await page.getByRole('row', { name: /All facilities\s*Owner/ }).waitFor();
      assertNoPageProblems(page);
    });
  },
  { startAt: new Date().toISOString() },
);
