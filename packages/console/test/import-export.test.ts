/**
 * The console's CSV screen in Chromium, on SQLite and PostgreSQL: a dry run's
 * report, an import of the valid rows, a whole-file problem, an export saved as
 * a download, and a viewer key that may only export.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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

const GOOD_AND_BAD = [
  'external_id,first_name,last_name,email',
  'X-1,Ada,Lovelace,ada@example.com',
  'X-2,Alan,Turing,alan@example.com',
  'X-3,Grace,Hopper,not-an-email',
  'X-4,Edsger,Dijkstra,edsger@example.com',
  '',
].join('\n');

function chooseFile(page: Page, name: string, text: string): Promise<void> {
  return page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

/** The report's count with this label. */
async function count(page: Page, label: string): Promise<string | null> {
  return page
    .locator('.count', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
    .textContent();
}

describeConsole('console: import and export', ({ api, consoleUrl, newPage, viewerKey }) => {
  const auth = { authorization: `Bearer ${ADMIN_KEY}` };
  const openScreen = async (page: Page, facility: number) => {
    await page.getByRole('link', { name: 'Import & export' }).click();
    await page.getByRole('heading', { name: 'Import & export', level: 1 }).waitFor();
    assert.equal(page.url().endsWith(`#/f/${facility}/import`), true);
  };

  it('checks a file, reports its failing row, and imports the valid rows once with skip', async () => {
    const facility = api.newFacility();
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await openScreen(page, facility);
    await assertAccessible(page, 'import and export');
    const check = page.getByRole('button', { name: 'Check file' });
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    assert.equal(await check.isDisabled(), true);
    await chooseFile(page, 'members.csv', GOOD_AND_BAD);
    assert.equal(await importButton.isDisabled(), true);

    // Abort (the default): the dry run lists the failure, and nothing could be imported.
    await check.click();
    await page.getByText('Nothing would be written').waitFor();
    assert.equal(await count(page, 'Rows'), '4');
    assert.equal(await count(page, 'Would create'), '3');
    assert.equal(await count(page, 'Failing'), '1');
    const row = page.locator('.import-report tbody tr');
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator('td[data-label="Row"]').textContent(), '3');
    assert.equal(await row.locator('td[data-label="Line"]').textContent(), '4');
    assert.equal(await row.locator('td[data-label="Column"]').textContent(), 'email');
    assert.equal(await importButton.isDisabled(), true);

    // Skip: a changed option needs its own dry run, then Import writes the three valid rows.
    await page.getByRole('radio', { name: /^Skip/ }).check();
    assert.equal(await importButton.isDisabled(), true);
    await check.click();
    await page.getByText('the valid rows would be written').waitFor();
    await assertAccessible(page, 'import report');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, 'import-report');
    await page.setViewportSize({ width: 375, height: 800 });
    await assertAccessible(page, 'import report at 375 px');
    await screenshot(page, `import-report-375-${api.dialect}`);
    await page.setViewportSize({ width: 1440, height: 900 });
    // A double click imports once: one Idempotency-Key for this file and these options.
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/members/import?dry_run=false'))
        keys.push(request.headers()['idempotency-key']);
    });
    await importButton.dblclick();
    await page.getByText('Imported: 3 created, 0 updated.').waitFor();
    assert.equal(await count(page, 'Created'), '3');
    assert.equal(await count(page, 'Failed'), '1');
    assert.equal(await importButton.isDisabled(), true);
    assert.equal(keys.length > 0 && keys.every((key) => /^[0-9a-f]{32}$/.test(key) && key === keys[0]), true);
    const listed = await api.get(`/admin/facilities/${facility}/members?limit=100`, auth);
    assert.deepEqual(listed.body.members.map((m: { external_id: string }) => m.external_id).sort(), [
      'X-1',
      'X-2',
      'X-4',
    ]);
    await page.getByRole('link', { name: 'Members' }).first().click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Edsger Dijkstra' }).count(), 1);
    assert.equal(await page.getByRole('link', { name: /Grace/ }).count(), 0);
    assertNoPageProblems(page);
  });

  it("shows a running job's phase and rows done, then its report", async () => {
    const facility = api.newFacility();
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await openScreen(page, facility);
    await chooseFile(page, 'members.csv', GOOD_AND_BAD);
    // The service's job, as its upload's answer would show it had it not finished yet; its
    // first read is held until the progress has been looked at.
    await page.route('**/members/import?*', async (route) => {
      const response = await route.fetch();
      const job = await response.json();
      const running = { ...job, state: 'running', report: null, finished_at: null, expires_at: null };
      await route.fulfill({
        response,
        json: { ...running, progress: { phase: 'checking', rows_done: 2, rows_total: 4 } },
      });
    });
    let looked!: () => void;
    const progressSeen = new Promise<void>((resolve) => {
      looked = resolve;
    });
    await page.route('**/members/imports/*', async (route) => {
      await progressSeen;
      await route.continue();
    });
    await page.getByRole('radio', { name: /^Skip/ }).check();
    await page.getByRole('button', { name: 'Check file' }).click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    assert.equal(await bar.getAttribute('value'), '2');
    assert.equal(await bar.getAttribute('max'), '4');
    await page.getByText('Checked: 2 of 4 rows.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Checking the file…' }).waitFor();
    await assertAccessible(page, 'import progress');
    await screenshot(page, `import-progress-${api.dialect}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, `import-progress-375-${api.dialect}`);
    looked();
    await page.getByText('the valid rows would be written').waitFor();
    assert.equal(await bar.count(), 0);
    assert.equal(await count(page, 'Would create'), '3');
    assertNoPageProblems(page);
  });

  it("shows a whole-file problem's detail", async () => {
    const facility = api.newFacility();
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await openScreen(page, facility);
    await chooseFile(page, 'wrong.csv', 'first_name,shoe_size\nAda,38\n');
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('alert').filter({ hasText: 'unknown column "shoe_size"' }).waitFor();
    assert.equal(await page.locator('.import-report').count(), 0);
    await assertAccessible(page, 'import problem');
    assertNoPageProblems(page);
  });

  it('downloads the filtered members as a CSV file', async () => {
    const facility = api.newFacility();
    for (const [first_name, last_name, email] of [
      ['Ada', 'Lovelace', 'ada@example.com'],
      ['Alan', 'Turing', 'alan@example.com'],
    ]) {
      await api.post(`/admin/facilities/${facility}/members`, { first_name, last_name, email }, auth);
    }
    const page = await newPage();
    await signIn(page, consoleUrl(), ADMIN_KEY, facility);
    await openScreen(page, facility);
    const saved = async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      assert.match(download.suggestedFilename(), new RegExp(`^members-facility-${facility}-.*\\.csv$`));
      return readFile(await download.path(), 'utf8');
    };
    const all = await saved();
    assert.match(all, /first_name/);
    assert.match(all, /ada@example\.com/);
    assert.match(all, /alan@example\.com/);
    await page.getByText(/Saved members-facility-.*\.csv/).waitFor();
    await page.getByLabel('Search').fill('turing');
    const filtered = await saved();
    assert.match(filtered, /alan@example\.com/);
    assert.doesNotMatch(filtered, /ada@example\.com/);
    // The blob: download needs no change to the CSP: no violation was reported.
    assertNoPageProblems(page);
  });

  it('offers a viewer key the export and no import', async () => {
    const facility = api.newFacility();
    await api.post(
      `/admin/facilities/${facility}/members`,
      { first_name: 'Barbara', last_name: 'Liskov' },
      auth,
    );
    const page = await newPage();
    await signIn(page, consoleUrl(), await viewerKey([facility]));
    await page.getByRole('link', { name: `Facility ${facility}` }).click();
    await openScreen(page, facility);
    await page.getByText('Importing members needs the manager or owner role here').waitFor();
    assert.equal(await page.getByLabel('CSV file').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Check file' }).count(), 0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.match(await readFile(await download.path(), 'utf8'), /Liskov/);
    await assertAccessible(page, 'export for a viewer');
    assertNoPageProblems(page);
  });
});
