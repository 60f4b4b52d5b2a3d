/**
 * A member's credentials in the console, in Chromium, on SQLite and
 * PostgreSQL: add a card (its value shown once, to copy), a QR code the
 * service makes, a refused value taken with its detail at the field, revoke
 * through the dialog; a viewer sees the list and no control.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';

describeConsole('console: credentials', ({ api, consoleUrl, newPage, viewerKey }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const newMember = async (facility: number, first_name: string) =>
    (await api.post(`/admin/facilities/${facility}/members`, { first_name, last_name: 'Door' }, auth)).body
      .id as number;
  const openMember = async (page: Page, facility: number, memberId: number, key = ADMIN_KEY) => {
    await signIn(page, consoleUrl(), key, facility);
    await page.goto(`${consoleUrl()}#/f/${facility}/members/${memberId}`);
    await page.getByRole('heading', { name: 'Credentials' }).waitFor();
  };
  const rows = (page: Page) => page.locator('.credentials tbody tr');
  const panel = (page: Page) => page.locator('.credentials');

  it('adds a card and shows its value once, makes a QR code, refuses a value taken, revokes through a dialog', async () => {
    const facility = api.newFacility();
    const memberId = await newMember(facility, 'Ada');
    const page = await newPage();
    await openMember(page, facility, memberId);
    await page.getByText('No credentials.').waitFor();
    await assertAccessible(page, 'member without credentials');

    await panel(page).getByLabel('Value').fill('04A2241A7731');
    await panel(page).getByLabel('Label').fill('Blue key fob');
    await page.getByRole('button', { name: 'Add credential' }).click();
    const callout = page.getByRole('region', { name: 'Card or fob ending 7731 added' });
    await callout.waitFor();
    assert.equal(await callout.getByLabel('Value').inputValue(), '04A2241A7731');
    await rows(page).filter({ hasText: 'Blue key fob' }).filter({ hasText: '7731' }).waitFor();
    assert.equal(
      await panel(page).getByLabel('Value', { exact: true }).count(),
      2,
      'the callout and the empty field',
    );
    assert.equal(await panel(page).locator('form').getByLabel('Value').inputValue(), '');

    // The same value again: the service's 409 at the field; nothing added.
    await panel(page).locator('form').getByLabel('Value').fill('04A2241A7731');
    await page.getByRole('button', { name: 'Add credential' }).click();
    await page.locator('.credential-form .field-error', { hasText: /not revoked has this value/ }).waitFor();
    assert.equal(await rows(page).count(), 1);
    await assertAccessible(page, 'refused credential');

    // A QR code the service makes: no value field while "Generate" is ticked.
    await panel(page).getByLabel('Type').selectOption('qr');
    assert.equal(await panel(page).getByLabel('Generate a random code').isChecked(), true);
    assert.equal(await panel(page).locator('form').getByLabel('Value').count(), 0);
    await panel(page).getByLabel('Label').fill('Phone');
    await page.getByRole('button', { name: 'Add credential' }).click();
    const qr = page.getByRole('region', { name: /^QR code ending .{4} added$/ });
    await qr.waitFor();
    const value = await qr.getByLabel('Value').inputValue();
    assert.match(value, /^[A-Za-z0-9_-]{22}$/);
    await rows(page)
      .filter({ hasText: 'Phone' })
      .filter({ hasText: value.slice(-4) })
      .waitFor();
    await page.getByRole('button', { name: 'Copy value' }).click();
    await page.getByText(/Copied to the clipboard|press Ctrl\+C/).waitFor();
    await assertAccessible(page, 'credential added');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `member-credentials-${api.dialect}`);

    // Revoke the card: the dialog asks first; "Keep it" backs out.
    const revoke = page.getByRole('button', { name: 'Revoke the Card or fob ending 7731' });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the Card or fob ending 7731?' });
    await dialog.waitFor();
    await assertAccessible(page, 'revoke dialog');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await revoke.waitFor({ state: 'detached' });
    const listed = await api.get(`/admin/facilities/${facility}/members/${memberId}/credentials`, auth);
    assert.deepEqual(
      listed.body.credentials.map((c: { value_last4: string; revoked_at: string | null }) => [
        c.value_last4,
        c.revoked_at !== null,
      ]),
      [
        ['7731', true],
        [value.slice(-4), false],
      ],
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await assertAccessible(page, 'credentials at 375 px');
    await screenshot(page, `member-credentials-375-${api.dialect}`);
    assertNoPageProblems(page);
  });

  it('lets a viewer see the credentials and no control that adds or revokes one', async () => {
    const facility = api.newFacility();
    const memberId = await newMember(facility, 'Barbara');
    const url = `/admin/facilities/${facility}/members/${memberId}/credentials`;
    assert.equal((await api.post(url, { type: 'pin', value: '482913', label: 'Keypad' }, auth)).status, 201);
    const page = await newPage();
    await openMember(page, facility, memberId, await viewerKey([facility]));
    await rows(page).filter({ hasText: 'Keypad' }).filter({ hasText: '2913' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Add a credential' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /Revoke|Add credential/ }).count(), 0);
    await assertAccessible(page, 'credentials as a viewer');
    assertNoPageProblems(page);
  });
});
