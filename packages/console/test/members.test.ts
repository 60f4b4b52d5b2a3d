/**
 * The console's members flow in Chromium, on SQLite and PostgreSQL: enrol,
 * search, status changes, the audit timeline, a 412 from two tabs, moves and
 * fields a newer service sends, the membership's end and the waiver, and axe
 * on each screen. Signing in and out: sign-in.test.ts.
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

describeConsole('console: members', ({ api, clock, consoleUrl, newPage }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };

  it('enrols a member on a plan, finds them by a debounced search, and shows the field errors of a refusal', async () => {
    const facility = api.newFacility();
    const plan = (name: string) =>
      api.post(`/admin/facilities/${facility}/plans`, { name, price_amount: 4900 }, auth);
    const [adult, junior] = [(await plan('Adult monthly')).body.id, (await plan('Junior term')).body.id];
    const others = [
      { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', plan_id: adult },
      {
        first_name: 'Katherine',
        last_name: 'Johnson',
        email: 'kj@example.com',
        role: 'coach',
        plan_id: junior,
      },
      { first_name: 'Margaret', last_name: 'Hamilton', email: 'margaret@example.com', status: 'pending' },
      { first_name: 'Annie', last_name: 'Easley', role: 'staff', plan_id: adult },
    ];
    for (const member of others) await api.post(`/admin/facilities/${facility}/members`, member, auth);
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await page.getByRole('link', { name: 'Enrol a member' }).click();
    await page.getByRole('heading', { name: 'Enrol a member' }).waitFor();
    await assertAccessible(page, 'enrol');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Plan').selectOption({ label: 'Adult monthly' });
    await page.getByRole('button', { name: 'Enrol' }).click();
    // The service's 409 is shown beside the email field.
    await page.getByText(/email/i).and(page.locator('.field-error')).waitFor();
    await page.getByLabel('Email').fill('ada@example.com');
    // A double click creates one member: the form sends the same Idempotency-Key.
    await page.getByRole('button', { name: 'Enrol' }).dblclick();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    const listed = await api.get(`/admin/facilities/${facility}/members?q=lovelace`, auth);
    assert.equal(listed.body.members.length, 1);

    await page.getByRole('link', { name: 'Members' }).first().click();
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await page.getByLabel('Search').fill('lovel');
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('link', { name: 'Ada Lovelace' }).count(), 1);
    // The search is in the address: back from a member's page returns to it.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    assert.equal(await page.getByLabel('Search').inputValue(), 'lovel');
    assert.equal(await page.getByRole('link', { name: 'Grace Hopper' }).count(), 0);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('frozen');
    await page.getByText('No member matches these filters.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await assertAccessible(page, 'members');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, `members-1440-${api.dialect}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await assertAccessible(page, 'members at 375 px');
    await screenshot(page, `members-375-${api.dialect}`);
    assertNoPageProblems(page);
  });

  it('moves a member through statuses the service allows and shows each change in the audit timeline', async () => {
    const facility = api.newFacility();
    const created = await api.post(
      `/admin/facilities/${facility}/members`,
      { first_name: 'Alan', last_name: 'Turing' },
      auth,
    );
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await page.goto(`${consoleUrl()}#/f/${facility}/members/${created.body.id}`);
    await page.getByRole('heading', { name: 'Alan Turing' }).waitFor();
    // From active: freeze, suspend, cancel; never "Activate".
    assert.equal(await page.getByRole('button', { name: 'Activate' }).count(), 0);
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await page.locator('.screen-head .badge', { hasText: 'frozen' }).waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.locator('.screen-head .badge', { hasText: 'active' }).waitFor();
    const member = await api.get(`/admin/facilities/${facility}/members/${created.body.id}`, auth);
    assert.equal(member.body.status, 'active');
    const timeline = page.locator('.timeline > li');
    await page.waitForFunction(() => document.querySelectorAll('.timeline > li').length === 3);
    assert.match((await timeline.first().textContent()) ?? '', /changed.*status.*frozen.*active/s);
    assert.match((await timeline.last().textContent()) ?? '', /created/);
    // The move to frozen opened a freeze and the move back ended it today: listed, nothing left to cancel.
    await page.locator('.freezes tbody tr', { hasText: 'under way' }).waitFor();
    await page.locator('.freezes td', { hasText: 'Open-ended' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: /^Cancel the freeze/ }).count(), 0);
    await assertAccessible(page, 'member page');
    await screenshot(page, `member-${api.dialect}`);
    assertNoPageProblems(page);
  });

  it('tells the second of two tabs that someone else changed the member, and reloads it', async () => {
    const facility = api.newFacility();
    const created = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Edsger' }, auth);
    const url = `${consoleUrl()}#/f/${facility}/members/${created.body.id}`;
    const [first, second] = [await newPage(), await newPage()];
    for (const page of [first, second]) {
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.goto(url);
      await page.getByRole('button', { name: 'Edit' }).click();
    }
    await first.getByLabel('Notes').fill('First tab');
    await first.getByRole('button', { name: 'Save changes' }).click();
    await first.locator('dd', { hasText: 'First tab' }).waitFor();
    await second.getByLabel('Notes').fill('Second tab');
    await second.getByRole('button', { name: 'Save changes' }).click();
    await second.getByText('Someone else changed this').waitFor();
    await assertAccessible(second, 'conflict');
    await screenshot(second, `conflict-${api.dialect}`);
    await second.getByRole('button', { name: 'Reload the latest version' }).click();
    await second.locator('dd', { hasText: 'First tab' }).waitFor();
    const member = await api.get(`/admin/facilities/${facility}/members/${created.body.id}`, auth);
    assert.equal(member.body.notes, 'First tab');
    assertNoPageProblems(first);
    assertNoPageProblems(second);
  });

  it('offers the moves the service lists in allowed_transitions, and shows fields it does not know', async () => {
    const facility = api.newFacility();
    const created = await api.post(
      `/admin/facilities/${facility}/members`,
      { first_name: 'Hedy', external_id: 'OLD-7' },
      auth,
    );
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    // A newer service's member: its own list of moves, and a field this console has no name for.
    await page.route(`**/admin/facilities/${facility}/members/${created.body.id}`, async (route) => {
      const response = await route.fetch();
      const member = {
        ...(await response.json()),
        allowed_transitions: ['cancelled'],
        locker_number: 'B-12',
      };
      await route.fulfill({ response, json: member });
    });
    await page.goto(`${consoleUrl()}#/f/${facility}/members/${created.body.id}`);
    await page.getByRole('heading', { name: 'Hedy' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel membership' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: /Freeze|Suspend/ }).count(), 0);
    await page.locator('dt', { hasText: 'Locker number' }).waitFor();
    await page.locator('dd', { hasText: 'B-12' }).waitFor();
    // The id from the facility's previous system is a known field, with its own name.
    assert.equal(await page.locator('dt', { hasText: /^External id$/ }).count(), 1);
    await page.locator('dd', { hasText: 'OLD-7' }).waitFor();
    assertNoPageProblems(page);
  });

  it("sets and clears the membership's end and the waiver, and names them on the page", async () => {
    const facility = api.newFacility();
    const created = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Radia' }, auth);
    const url = `/admin/facilities/${facility}/members/${created.body.id}`;
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await page.goto(`${consoleUrl()}#/f/${facility}/members/${created.body.id}`);
    await page.locator('dd', { hasText: 'No end date' }).waitFor();
    await page.locator('dd', { hasText: 'Not signed' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Membership ends').fill('2030-03-31');
    await page.getByLabel('Waiver').selectOption({ label: 'Signed now' });
    await assertAccessible(page, 'member form');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('dt', { hasText: 'Membership ends' }).waitFor();
    await page.locator('dd', { hasText: 'No end date' }).waitFor({ state: 'detached' });
    let member = (await api.get(url, auth)).body;
    assert.equal(member.ends_on, '2030-03-31');
    // "Signed now" is the page's now: the harness's clock.
    assert.equal(member.waiver_signed_at, clock.now().toISOString());
    assert.equal(await page.locator('dd', { hasText: 'Not signed' }).count(), 0);
    // Saved again untouched, the waiver keeps its time; emptied, both are cleared.
    await page.getByRole('button', { name: 'Edit' }).click();
    assert.match(await page.getByLabel('Waiver').inputValue(), /^\d{4}-.*Z$/);
    await page.getByLabel('Membership ends').fill('');
    await page.getByLabel('Waiver').selectOption({ label: 'Not signed' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('dd', { hasText: 'No end date' }).waitFor();
    member = (await api.get(url, auth)).body;
    assert.equal(member.ends_on, null);
    assert.equal(member.waiver_signed_at, null);
    assertNoPageProblems(page);
  });
});
