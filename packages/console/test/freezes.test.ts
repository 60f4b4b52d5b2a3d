/**
 * A member's dated freezes in the console, in Chromium, on SQLite and
 * PostgreSQL: plan one, a refused overlap with its detail, cancel through the
 * dialog, a freeze from today that freezes the member at once, the policy's
 * allow_freeze false, and a viewer who sees the freezes and no control.
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

async function planFreeze(page: Page, from: string, to: string, reason?: string): Promise<void> {
  await page.getByLabel('From').fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  if (reason) await page.getByLabel('Reason').fill(reason);
  await page.getByRole('button', { name: 'Plan freeze' }).click();
}

describeConsole('console: freezes', ({ api, clock, consoleUrl, newPage, viewerKey }) => {
  /** A day from today (the harness's clock, in UTC: the policy's default timezone) as YYYY-MM-DD. */
  const day = (offset: number) => clock.today(offset);
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const newMember = async (facility: number, first_name: string) =>
    (await api.post(`/admin/facilities/${facility}/members`, { first_name, last_name: 'Freeze' }, auth)).body
      .id as number;
  const openMember = async (page: Page, facility: number, memberId: number, key = ADMIN_KEY) => {
    await signIn(page, consoleUrl(), key, facility);
    await page.goto(`${consoleUrl()}#/f/${facility}/members/${memberId}`);
    await page.getByRole('heading', { name: 'Freezes' }).waitFor();
  };
  const rows = (page: Page) => page.locator('.freezes tbody tr');

  it('plans a freeze, refuses an overlapping one with its detail, and cancels one through a dialog', async () => {
    const facility = api.newFacility();
    const memberId = await newMember(facility, 'Ada');
    const page = await newPage();
    await openMember(page, facility, memberId);
    await page.getByText('No freezes.').waitFor();
    await assertAccessible(page, 'member without freezes');

    await planFreeze(page, day(1), day(7), 'Knee surgery');
    await rows(page).filter({ hasText: 'Knee surgery' }).filter({ hasText: 'planned' }).waitFor();
    const listed = await api.get(`/admin/facilities/${facility}/members/${memberId}/freezes`, auth);
    assert.deepEqual(
      listed.body.freezes.map((f: { starts_on: string; ends_on: string }) => [f.starts_on, f.ends_on]),
      [[day(1), day(7)]],
    );
    // The form is empty again for the next one.
    assert.equal(await page.getByLabel('From').inputValue(), '');

    await planFreeze(page, day(3), day(10));
    await page.locator('.freeze-form [role="alert"]', { hasText: /overlaps freeze/ }).waitFor();
    assert.equal(await rows(page).count(), 1);
    await assertAccessible(page, 'refused freeze');

    // Cancel the planned one: the dialog asks first; "Keep it" backs out.
    const cancel = page.getByRole('button', { name: /^Cancel the freeze from/ });
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: /Cancel the freeze from/ });
    await dialog.waitFor();
    await assertAccessible(page, 'cancel freeze dialog');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await rows(page).filter({ hasText: 'planned' }).count(), 1);
    await cancel.click();
    await dialog.getByRole('button', { name: 'Cancel freeze' }).click();
    await rows(page).filter({ hasText: 'cancelled' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Cancel the freeze from/ }).count(), 0);
    const after = await api.get(`/admin/facilities/${facility}/members/${memberId}/freezes`, auth);
    assert.notEqual(after.body.freezes[0].cancelled_at, null);

    // A freeze from today freezes the member at once: the page reloads the member too.
    await planFreeze(page, day(0), day(2), 'Travelling');
    await rows(page).filter({ hasText: 'Travelling' }).filter({ hasText: 'under way' }).waitFor();
    await page.locator('.screen-head .badge', { hasText: 'frozen' }).waitFor();
    await page.locator('dd', { hasText: 'A freeze started' }).waitFor();
    await assertAccessible(page, 'member with freezes');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `member-freezes-${api.dialect}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await assertAccessible(page, 'member with freezes at 375 px');
    await screenshot(page, `member-freezes-375-${api.dialect}`);
    assertNoPageProblems(page);
  });

  it("shows the policy's refusal when the facility does not allow freezes", async () => {
    const facility = api.newFacility();
    const memberId = await newMember(facility, 'Grace');
    const policy = await api.patch(`/admin/facilities/${facility}/policy`, { allow_freeze: false }, auth);
    assert.equal(policy.status, 200);
    const page = await newPage();
    await openMember(page, facility, memberId);
    assert.equal(await page.getByRole('button', { name: 'Freeze', exact: true }).count(), 0);
    await planFreeze(page, day(1), day(7));
    await page.getByText("This facility's policy does not allow freezing memberships").waitFor();
    await assertAccessible(page, 'freeze not allowed');
    assert.equal(await rows(page).count(), 0);
    assertNoPageProblems(page);
  });

  it('lets a viewer see the freezes and no control that plans or cancels one', async () => {
    const facility = api.newFacility();
    const memberId = await newMember(facility, 'Barbara');
    const created = await api.post(
      `/admin/facilities/${facility}/members/${memberId}/freezes`,
      { starts_on: day(5), ends_on: day(9), reason: 'Holiday' },
      { ...auth, 'idempotency-key': `viewer-${facility}` },
    );
    assert.equal(created.status, 201);
    const page = await newPage();
    await openMember(page, facility, memberId, await viewerKey([facility]));
    await rows(page).filter({ hasText: 'Holiday' }).filter({ hasText: 'planned' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Plan a freeze' }).count(), 0);
    assert.equal(await page.getByLabel('From').count(), 0);
    assert.equal(await page.getByRole('button', { name: /Cancel|Plan freeze/ }).count(), 0);
    await assertAccessible(page, 'freezes as a viewer');
    assertNoPageProblems(page);
  });
});
