/**
 * The front desk in the console, in Chromium, on SQLite and PostgreSQL: a
 * front-desk key scans cards as a keyboard-wedge scanner does (keystrokes and
 * Enter), sees ALLOW with the balances or DENY with every reason, finds a
 * member by name, checks a person out, and the occupancy and today's list follow.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { createApiKey } from '../../../src/infrastructure/api-keys/api-key.service.js';
import { doorRequests } from '../../../src/modules/access-decisions/access-decisions.fixtures.js';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';

describeConsole('console: front desk', ({ api, clock, consoleUrl, newPage, viewerKey }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const door = doorRequests(api);
  const url = (facility: number, path: string) => `/admin/facilities/${facility}/${path}`;
  const created = async (facility: number, path: string, body: object) => {
    const response = await api.post(url(facility, path), body, auth);
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number };
  };
  /** The reasons' messages the service gives for this card now (a dry run records nothing). */
  const messagesFor = async (facility: number, credential: string) => {
    const response = await api.post(url(facility, 'access-decisions'), { credential, dry_run: true }, auth);
    assert.equal(response.status, 200, response.text);
    return (response.body.reasons as { message: string }[]).map((r) => r.message);
  };

  /** A facility in Berlin: Ann (3 visits a week, 2 guest passes), Bob frozen, a revoked card and Ann's. */
  async function setUp() {
    const facility = api.newFacility();
    const policy = await api.patch(url(facility, 'policy'), { timezone: 'Europe/Berlin' }, auth);
    assert.equal(policy.status, 200, policy.text);
    const plan = await created(facility, 'plans', { name: 'Gold' });
    const set = await api.put(
      url(facility, `plans/${plan.id}/entitlements`),
      { entitlements: { visits_per_week: 3, guest_passes_per_month: 2 } },
      auth,
    );
    assert.ok(set.status === 200 || set.status === 201, set.text);
    const ann = await created(facility, 'members', { first_name: 'Ann', last_name: 'Lee', plan_id: plan.id });
    const bob = await created(facility, 'members', { first_name: 'Bob', last_name: 'Frost' });
    const freeze = await api.post(
      url(facility, `members/${bob.id}/freezes`),
      { starts_on: clock.today(), ends_on: clock.today(5) },
      { ...auth, 'idempotency-key': `bob-${facility}` },
    );
    assert.equal(freeze.status, 201, freeze.text);
    await door.giveCredential(facility, ann.id, 'ANN-CARD-0001');
    await door.giveCredential(facility, bob.id, 'BOB-CARD-0002');
    await door.giveCredential(facility, ann.id, 'OLD-CARD-0003', true);
    const key = (
      await createApiKey(api.app.db, { name: 'desk', role: 'front_desk', facilityIds: [facility] })
    ).secret;
    return { facility, ann, bob, key };
  }

  const scanned = async (page: Page, value: string) => {
    await page.keyboard.type(value);
    await page.keyboard.press('Enter');
  };
  const decision = (page: Page) => page.locator('.decision');
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id);
  const inNow = (page: Page) => page.locator('.occupancy-count strong');
  const todayRows = (page: Page) => page.locator('.check-ins tbody tr');

  it('scans cards with keystrokes and Enter: ALLOW with balances, DENY with every reason, check-out', async () => {
    const { facility, ann, key } = await setUp();
    const unknownMessages = await messagesFor(facility, 'NO-SUCH-CARD');
    const revokedMessages = await messagesFor(facility, 'OLD-CARD-0003');
    const frozenMessages = await messagesFor(facility, 'BOB-CARD-0002');
    assert.equal(unknownMessages.length, 1);
    assert.ok(frozenMessages.length >= 2, 'frozen and without a plan');

    const page = await newPage();
    await signIn(page, consoleUrl(), key, facility);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Front desk' }).click();
    await page.getByRole('heading', { name: 'Front desk', level: 1 }).waitFor();
    await page.getByText('No one has checked in today.').waitFor();
    assert.equal(await inNow(page).textContent(), '0');
    assert.equal(await focused(page), 'scan');
    await assertAccessible(page, 'front desk, empty');

    // Ann's card: let in, with the week's visits left after this one.
    await scanned(page, 'ANN-CARD-0001');
    await decision(page).filter({ hasText: 'ALLOW' }).waitFor();
    await decision(page).getByText('Let them in.').waitFor();
    await decision(page).getByRole('link', { name: 'Ann Lee' }).waitFor();
    const visits = decision(page).locator('.balances div', { hasText: 'Visits left this week' });
    assert.match((await visits.textContent()) ?? '', /2 of 3 after this visit/);
    await decision(page).locator('.balances div', { hasText: 'Guest passes left this month' }).waitFor();
    assert.equal(await focused(page), 'scan');
    assert.equal(await page.locator('#scan').inputValue(), '');
    await todayRows(page).filter({ hasText: 'Ann Lee' }).filter({ hasText: 'allowed' }).waitFor();
    await page.locator('.occupancy-count strong', { hasText: '1' }).waitFor();
    await assertAccessible(page, 'front desk, allowed');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `front-desk-allow-${api.dialect}`);
    await page.locator('#scan').focus();

    // An unknown value replaces the result: DENY, with the service's words.
    await scanned(page, 'NO-SUCH-CARD');
    await decision(page).filter({ hasText: 'DENY' }).waitFor();
    await decision(page).getByText('Do not let them in.').waitFor();
    await decision(page).getByText(unknownMessages[0]).waitFor();
    assert.equal(await decision(page).count(), 1);
    assert.equal(await decision(page).filter({ hasText: 'ALLOW' }).count(), 0);
    assert.equal(await focused(page), 'scan');
    await todayRows(page).filter({ hasText: 'Unknown card' }).filter({ hasText: 'denied' }).waitFor();

    // A revoked card, then a frozen member without a plan: every reason, with its end in Berlin's time.
    await scanned(page, 'OLD-CARD-0003');
    await decision(page).getByText(revokedMessages[0]).waitFor();
    await scanned(page, 'BOB-CARD-0002');
    await decision(page).getByRole('link', { name: 'Bob Frost' }).waitFor();
    for (const message of frozenMessages) await decision(page).getByText(message).waitFor();
    assert.equal(await decision(page).locator('.reasons li').count(), frozenMessages.length);
    assert.match(
      (await decision(page).locator('[data-code="member_not_active"] .until').textContent()) ?? '',
      /Until .*GMT\+1|Until .*CET/,
    );
    assert.equal(await focused(page), 'scan');
    await assertAccessible(page, 'front desk, denied');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `front-desk-deny-${api.dialect}`);
    assert.equal(await inNow(page).textContent(), '1', 'denied decisions let no one in');

    // Newest first: Bob's denial, then the revoked and unknown cards, then Ann.
    assert.equal(await todayRows(page).count(), 4);
    assert.match((await todayRows(page).first().textContent()) ?? '', /Bob Frost/);
    assert.match((await todayRows(page).last().textContent()) ?? '', /Ann Lee/);

    // Ann leaves: checked out, the occupancy goes down, and the field is ready for the next scan.
    await page.getByRole('button', { name: 'Check out Ann Lee' }).click();
    await page.getByText('Ann Lee checked out.').waitFor();
    await page.locator('.occupancy-count strong', { hasText: '0' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Check out Ann Lee' }).count(), 0);
    assert.equal(await focused(page), 'scan');
    const checkIns = await api.get(url(facility, `check-ins?member_id=${ann.id}`), auth);
    assert.notEqual(checkIns.body.check_ins[0].checked_out_at, null);
    assertNoPageProblems(page);
  });

  it('finds a member by name when the card is at home, counts guests, and shows the visits on her page', async () => {
    const { facility, ann, key } = await setUp();
    const page = await newPage({ width: 375 });
    await signIn(page, consoleUrl(), key, facility);
    await page.goto(`${consoleUrl()}#/f/${facility}/front-desk`);
    await page.getByRole('heading', { name: 'Front desk', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'One guest more' }).click();
    assert.equal(await focused(page), 'scan');
    await page.getByPlaceholder('Name, email or phone').fill('Lee');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: /Check in Ann Lee/ }).click();
    await decision(page).filter({ hasText: 'ALLOW' }).getByText('Let them in with 1 guest.').waitFor();
    const passes = decision(page).locator('.balances div', { hasText: 'Guest passes left this month' });
    assert.match((await passes.textContent()) ?? '', /1 of 2 after this guest/);
    assert.equal(await focused(page), 'scan');
    await todayRows(page).filter({ hasText: 'Ann Lee' }).filter({ hasText: '+1' }).waitFor();
    await page.locator('.occupancy-count strong', { hasText: '2' }).waitFor();
    await page.getByText('(1 member, 1 guest)').waitFor();
    // The guests go back to none for the next person.
    assert.equal(await page.locator('.guests output').textContent(), '0');
    await assertAccessible(page, 'front desk at 375 px');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `front-desk-375-${api.dialect}`);

    await page.goto(`${consoleUrl()}#/f/${facility}/members/${ann.id}`);
    await page.getByRole('heading', { name: 'Recent visits' }).waitFor();
    await page.locator('.visits tbody tr', { hasText: 'allowed' }).waitFor();
    assert.match((await page.locator('.visits p').first().textContent()) ?? '', /Last check-in: .*2026/);
    await assertAccessible(page, 'member page with visits');
    await page.getByRole('heading', { name: 'Recent visits' }).scrollIntoViewIfNeeded();
    await screenshot(page, `member-visits-375-${api.dialect}`);
    assertNoPageProblems(page);
  });

  it("leaves the front desk out of a viewer's navigation, and opened by its address offers no scan", async () => {
    const facility = api.newFacility();
    const page = await newPage();
    await signIn(page, consoleUrl(), await viewerKey([facility]), facility);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('link', { name: 'Plans' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Front desk' }).count(), 0);
    await page.goto(`${consoleUrl()}#/f/${facility}/front-desk`);
    await page.getByText('Your role here does not allow this.').waitFor();
    assert.equal(await page.locator('#scan').count(), 0);
    assertNoPageProblems(page);
  });
});
