/**
 * The console's plans, policy and activity screens in Chromium, on SQLite:
 * a plan from a template, its entitlements edited with their types kept,
 * archive / restore / purge confirmed, the policy form, the audit trail.
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

describeConsole(
  'console: plans, policy, activity',
  ({ api, consoleUrl, newPage }) => {
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };

    it('creates a plan from a template and edits its entitlements, keeping each value its type', async () => {
      const facility = api.newFacility();
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Plans' }).click();
      await page.getByText('No plans yet.').waitFor();
      await page.getByRole('link', { name: 'From a template' }).click();
      await page.getByRole('heading', { name: 'Tennis adult monthly' }).waitFor();
      await assertAccessible(page, 'template gallery');
      await screenshot(page, 'templates');
      await page.getByRole('link', { name: /^Use this template\W+Tennis adult monthly$/ }).click();
      await page.getByLabel('Name').fill('Tennis for adults');
      // Money is typed in dollars and sent in cents.
      assert.equal(await page.getByLabel('Price (USD)').inputValue(), '59.00');
      await page.getByLabel('Price (USD)').fill('64.50');
      await page.getByRole('button', { name: 'Create plan' }).click();
      await page.getByRole('heading', { name: 'Tennis for adults' }).waitFor();
      await page.getByText('$64.50 a month').waitFor();

      // The template's entitlements were copied: a number, a number and a boolean.
      const key = page.locator('input[id$="-key"]');
      await key.first().waitFor();
      assert.deepEqual(await key.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)), [
        'ball_machine_access',
        'court_booking_window_days',
        'guest_passes_per_month',
      ]);
      await page.getByLabel('Value').nth(2).fill('3');
      await page.getByRole('button', { name: 'Add entitlement' }).click();
      await page.getByLabel('Key').nth(3).fill('locker');
      await page.getByLabel('Value').nth(3).fill('12');
      await page.getByRole('button', { name: 'Add entitlement' }).click();
      await page.getByLabel('Key').nth(4).fill('sauna');
      await page.getByLabel('Type').nth(4).selectOption('boolean');
      await page.getByLabel('Value').nth(4).selectOption('false');
      await page.getByRole('button', { name: 'Save entitlements' }).click();
      await page.getByText('Entitlements saved.').waitFor();
      const plans = await api.get(`/admin/facilities/${facility}/plans`, auth);
      const plan = plans.body.plans[0];
      assert.equal(plan.price_amount, 6450);
      assert.equal(plan.template_id, 1);
      const saved = await api.get(`/admin/facilities/${facility}/plans/${plan.id}/entitlements`, auth);
      assert.deepEqual(saved.body.entitlements, [
        { key: 'ball_machine_access', value: true },
        { key: 'court_booking_window_days', value: 7 },
        { key: 'guest_passes_per_month', value: 3 },
        { key: 'locker', value: '12' },
        { key: 'sauna', value: false },
      ]);
      await assertAccessible(page, 'plan page');
      await screenshot(page, 'plan');
      await page.setViewportSize({ width: 375, height: 800 });
      await assertAccessible(page, 'plan page at 375 px');
      await screenshot(page, 'plan-375');
      assertNoPageProblems(page);
    });

    it('archives, restores and purges a plan, each after a confirmation', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        `/admin/facilities/${facility}/plans`,
        { name: 'Off-peak', price_amount: 1000 },
        auth,
      );
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.goto(`${consoleUrl()}#/f/${facility}/plans/${created.body.id}`);
      await page.getByRole('button', { name: 'Archive' }).click();
      const dialog = page.getByRole('dialog', { name: 'Archive Off-peak?' });
      await dialog.waitFor();
      await assertAccessible(page, 'confirmation dialog');
      // Escape cancels: nothing changes.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Focus goes back to the button that opened the dialog (after the dialog's removal has rendered).
      await page.waitForFunction(() => document.activeElement?.textContent === 'Archive', undefined, {
        timeout: 2000,
      });
      assert.equal(
        (await api.get(`/admin/facilities/${facility}/plans/${created.body.id}`, auth)).body.deleted_at,
        null,
      );
      await page.getByRole('button', { name: 'Archive' }).click();
      await dialog.getByRole('button', { name: 'Archive' }).click();
      await page.locator('.screen-head .badge', { hasText: 'archived' }).waitFor();
      await page.getByRole('button', { name: 'Restore' }).click();
      await page.locator('.screen-head .badge', { hasText: 'active' }).waitFor();
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
      await page.getByText('No plans yet.').waitFor();
      assert.equal(
        (await api.get(`/admin/facilities/${facility}/plans/${created.body.id}`, auth)).status,
        404,
      );
      assertNoPageProblems(page);
    });

    it('lists inactive and archived plans with money in the policy currency', async () => {
      const facility = api.newFacility();
      await api.patch(`/admin/facilities/${facility}/policy`, { currency: 'JPY' }, auth);
      await api.post(`/admin/facilities/${facility}/plans`, { name: 'Yen plan', price_amount: 5000 }, auth);
      const old = await api.post(`/admin/facilities/${facility}/plans`, { name: 'Old plan' }, auth);
      await api.delete(`/admin/facilities/${facility}/plans/${old.body.id}`, auth);
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Plans' }).click();
      await page.getByRole('link', { name: 'Old plan' }).waitFor();
      assert.match((await page.getByRole('row', { name: /Yen plan/ }).textContent()) ?? '', /¥5,000/);
      assert.match((await page.getByRole('row', { name: /Old plan/ }).textContent()) ?? '', /archived/);
      await assertAccessible(page, 'plans');
      await screenshot(page, 'plans');
      assertNoPageProblems(page);
    });

    it('edits the policy, says which fields the service enforces, and shows times in its timezone', async () => {
      const facility = api.newFacility();
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Policy' }).click();
      await page.getByLabel('Timezone').fill('Mars/Olympus');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.locator('.field-error').first().waitFor();
      await page.getByLabel('Timezone').fill('Asia/Tokyo');
      await page.getByLabel('No-show fee (USD)').fill('12.50');
      await page.getByLabel('Allow freezing').selectOption('no');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Policy saved.').waitFor();
      const policy = await api.get(`/admin/facilities/${facility}/policy`, auth);
      assert.equal(policy.body.timezone, 'Asia/Tokyo');
      assert.equal(policy.body.no_show_fee_amount, 1250);
      assert.equal(policy.body.allow_freeze, false);
      assert.ok((await page.getByText('Enforced by this service.').count()) >= 3);
      assert.ok((await page.getByText('not enforced here').count()) >= 3);
      // Times are in the facility's timezone (Tokyo is GMT+9), whatever the browser's (UTC here).
      const changed = page.locator('p', { hasText: 'Last changed' });
      await page
        .waitForFunction(() => /GMT\+9/.test(document.querySelector('main p.muted')?.textContent ?? ''))
        .catch(() => {});
      assert.match((await changed.textContent()) ?? '', /GMT\+9/);
      await assertAccessible(page, 'policy');
      await screenshot(page, 'policy');
      await page.setViewportSize({ width: 375, height: 800 });
      await assertAccessible(page, 'policy at 375 px');
      await screenshot(page, 'policy-375');
      assertNoPageProblems(page);
    });

    it('shows the audit trail, filtered by resource and action', async () => {
      const facility = api.newFacility();
      await api.post(`/admin/facilities/${facility}/plans`, { name: 'Squash' }, auth);
      await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Marie' }, auth);
      await api.patch(`/admin/facilities/${facility}/policy`, { booking_window_days: 21 }, auth);
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Activity' }).click();
      await page.getByRole('link', { name: 'policy', exact: true }).waitFor();
      assert.equal(await page.locator('.timeline > li').count(), 3);
      await assertAccessible(page, 'activity');
      await screenshot(page, 'activity');
      await page.getByLabel('Resource', { exact: true }).selectOption('member');
      await page.waitForFunction(() => document.querySelectorAll('.timeline > li').length === 1);
      await page.getByRole('link', { name: /member \d+/ }).waitFor();
      await page.getByLabel('Action').selectOption('delete');
      await page.getByText('No activity matches.').waitFor();
      assertNoPageProblems(page);
    });
  },
  { dialects: ['sqlite'] },
);

describeConsole(
  'console: authentication off',
  ({ api, consoleUrl, newPage }) => {
    it('asks for no key when the service runs with AUTH_MODE=none', async () => {
      const page = await newPage({ width: 375 });
      await page.goto(consoleUrl());
      await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
      await page.getByLabel('Or open a facility by its id').fill(String(api.newFacility()));
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByText('No members yet.').waitFor();
      await page.getByText('Authentication off').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
      assertNoPageProblems(page);
    });
  },
  { dialects: ['sqlite'], authMode: 'none' },
);
