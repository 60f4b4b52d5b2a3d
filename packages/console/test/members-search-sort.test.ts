/**
 * The members list as a front desk uses it, in Chromium, on SQLite and
 * PostgreSQL: a search by words without accents, a full name, and a column
 * header that sorts the list (click again: the other way), with aria-sort.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';

describeConsole('console: members search and sort', ({ api, consoleUrl, newPage }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };

  it('finds Zoë by "zoe" and Jürgen Müller by his full name, and sorts by a header click', async () => {
    const facility = api.newFacility();
    for (const member of [
      { first_name: 'Zoë', last_name: 'Adams', joined_on: '2026-03-01' },
      { first_name: 'Jürgen', last_name: 'Müller', joined_on: '2026-01-15' },
      { first_name: 'Jürgen', last_name: 'Schmidt', joined_on: '2026-02-10' },
      { first_name: 'Bea', last_name: 'Zorn', joined_on: '2025-12-01' },
    ]) {
      const created = await api.post(`/admin/facilities/${facility}/members`, member, auth);
      assert.equal(created.status, 201, created.text);
    }
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await page.getByRole('link', { name: 'Members' }).first().click();
    await page.getByRole('link', { name: 'Bea Zorn' }).waitFor();

    const names = () => page.locator('table.list tbody td[data-label="Name"]').allInnerTexts();
    await page.getByLabel('Search').fill('zoe');
    await page.getByRole('link', { name: 'Bea Zorn' }).waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['Zoë Adams']);
    await page.getByLabel('Search').fill('Jürgen Müller');
    await page.getByRole('link', { name: 'Zoë Adams' }).waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['Jürgen Müller']);
    await page.getByLabel('Search').fill('');
    await page.getByRole('link', { name: 'Bea Zorn' }).waitFor();

    const nameHeader = page.getByRole('columnheader', { name: /Name/ });
    assert.equal(await nameHeader.getAttribute('aria-sort'), null);
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]') !== null);
    await page.waitForFunction(
      () => document.querySelector('table.list tbody td[data-label="Name"]')?.textContent === 'Bea Zorn',
    );
    assert.deepEqual(await names(), ['Bea Zorn', 'Jürgen Müller', 'Jürgen Schmidt', 'Zoë Adams']);
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]') !== null);
    await page.waitForFunction(
      () => document.querySelector('table.list tbody td[data-label="Name"]')?.textContent === 'Zoë Adams',
    );
    assert.deepEqual(await names(), ['Zoë Adams', 'Jürgen Schmidt', 'Jürgen Müller', 'Bea Zorn']);
    await page.getByRole('button', { name: /^Joined/ }).click();
    await page.waitForFunction(
      () => document.querySelector('table.list tbody td[data-label="Name"]')?.textContent === 'Bea Zorn',
    );
    assert.deepEqual(await names(), ['Bea Zorn', 'Jürgen Müller', 'Jürgen Schmidt', 'Zoë Adams']);
    assert.equal(await nameHeader.getAttribute('aria-sort'), null);
    assert.equal(
      await page.getByRole('columnheader', { name: /Joined/ }).getAttribute('aria-sort'),
      'ascending',
    );
    // The sort is in the address, as the filters are.
    assert.match(page.url(), /sort=joined_on/);
    await assertAccessible(page, 'members sorted');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `members-sorted-${api.dialect}`);
    await assertNoPageProblems(page);
  });
});
