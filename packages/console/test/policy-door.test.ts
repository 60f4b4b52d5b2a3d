/**
 * The policy's door rules in the console, in Chromium, on SQLite: opening
 * hours per weekday (an interval past midnight said as "until … next day"),
 * a closure, the occupancy limit and the visit limit mode, saved and seen
 * again after a reload; the form's own refusal of a closure that ends
 * before it starts; screenshots at 1440 and 375 px.
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
  'console: the policy at the door',
  ({ api, consoleUrl, newPage }) => {
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };

    it('sets opening hours and a closure, and shows them after a reload', async () => {
      const facility = api.newFacility();
      const page = await newPage({ width: 1440 });
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Policy' }).click();
      await page.getByRole('heading', { name: 'At the door' }).waitFor();
      assert.equal(await page.getByLabel(/Open at all hours/).isChecked(), true);

      await page.getByLabel(/Open at all hours/).uncheck();
      await page.getByText('No day has hours: the door lets no one in.').waitFor();
      await page.getByRole('button', { name: 'Add hours on Monday' }).click();
      await page.getByLabel('Monday 1 opens').fill('06:00');
      await page.getByLabel('Monday 1 closes').fill('13:00');
      await page.getByRole('button', { name: 'Add hours on Monday' }).click();
      await page.getByLabel('Monday 2 opens').fill('15:00');
      await page.getByLabel('Monday 2 closes').fill('22:00');
      await page.getByRole('button', { name: 'Add hours on Friday' }).click();
      await page.getByLabel('Friday 1 opens').fill('20:00');
      await page.getByLabel('Friday 1 closes').fill('02:00');
      await page.getByText('until 02:00 next day').waitFor();
      // Added, then removed: Tuesday stays closed.
      await page.getByRole('button', { name: 'Add hours on Tuesday' }).click();
      await page.getByRole('button', { name: 'Remove Tuesday 1' }).click();

      await page.getByRole('button', { name: 'Add closure' }).click();
      await page.getByLabel('First day').fill('2026-12-26');
      await page.getByLabel('Last day').fill('2026-12-24');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('The last day is before the first').waitFor();
      await page.getByLabel('First day').fill('2026-12-24');
      await page.getByLabel('Last day').fill('2026-12-26');
      await page.getByLabel('Reason').fill('Christmas');
      await page.getByLabel('Maximum occupancy').fill('120');
      await page.getByLabel('When a visit limit is reached').selectOption('warn');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Policy saved.').waitFor();

      const policy = (await api.get(`/admin/facilities/${facility}/policy`, auth)).body;
      assert.deepEqual(policy.opening_hours, {
        monday: [
          { opens: '06:00', closes: '13:00' },
          { opens: '15:00', closes: '22:00' },
        ],
        friday: [{ opens: '20:00', closes: '02:00' }],
      });
      assert.deepEqual(policy.closures, [
        { starts_on: '2026-12-24', ends_on: '2026-12-26', reason: 'Christmas' },
      ]);
      assert.equal(policy.max_occupancy, 120);
      assert.equal(policy.visit_limit_mode, 'warn');

      await page.reload();
      await page.getByRole('heading', { name: 'At the door' }).waitFor();
      assert.equal(await page.getByLabel(/Open at all hours/).isChecked(), false);
      assert.equal(await page.getByLabel('Monday 2 opens').inputValue(), '15:00');
      assert.equal(await page.getByLabel('Friday 1 closes').inputValue(), '02:00');
      await page.getByText('until 02:00 next day').waitFor();
      assert.equal(await page.getByLabel('Tuesday 1 opens').count(), 0);
      assert.equal(await page.getByLabel('First day').inputValue(), '2026-12-24');
      assert.equal(await page.getByLabel('Reason').inputValue(), 'Christmas');
      assert.equal(await page.getByLabel('Maximum occupancy').inputValue(), '120');
      await assertAccessible(page, 'policy at the door');
      await screenshot(page, 'policy-door');
      await page.setViewportSize({ width: 375, height: 800 });
      await assertAccessible(page, 'policy at the door, 375 px');
      await screenshot(page, 'policy-door-375');

      // Emptied: no limit again, and the closure removed.
      await page.getByLabel('Maximum occupancy').fill('');
      await page.getByRole('button', { name: 'Remove closure 1' }).click();
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Policy saved.').waitFor();
      const emptied = (await api.get(`/admin/facilities/${facility}/policy`, auth)).body;
      assert.equal(emptied.max_occupancy, null);
      assert.deepEqual(emptied.closures, []);
      assertNoPageProblems(page);
    });

    it("shows the service's refusal of overlapping intervals beside the interval", async () => {
      const facility = api.newFacility();
      const page = await newPage({ width: 1440 });
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Policy' }).click();
      await page.getByLabel(/Open at all hours/).uncheck();
      await page.getByRole('button', { name: 'Add hours on Wednesday' }).click();
      await page.getByRole('button', { name: 'Add hours on Wednesday' }).click();
      await page.getByLabel('Wednesday 2 opens').fill('10:00');
      await page.getByLabel('Wednesday 2 closes').fill('12:00');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.locator('.interval .field-error', { hasText: 'overlaps 06:00 to 22:00' }).waitFor();
      assert.equal((await api.get(`/admin/facilities/${facility}/policy`, auth)).body.opening_hours, null);
      assertNoPageProblems(page);
    });
  },
  { dialects: ['sqlite'] },
);
