/**
 * The console's webhooks screen in Chromium, on SQLite and PostgreSQL: add an
 * endpoint that points at a receiver on loopback (its secret shown once, and
 * nowhere again), send it a test event and see it delivered, a refused URL
 * beside its field, and a viewer key without write controls; axe on each
 * screen. Rotating, editing and deleting: webhooks-manage.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  type Receiver,
  startReceiver,
  WEBHOOK_TEST_CONFIG,
} from '../../../src/modules/webhooks/webhook.fixtures.js';
import {
  ADMIN_KEY,
  assertAccessible,
  assertNoPageProblems,
  describeConsole,
  screenshot,
  signIn,
} from './browser.js';

/**
 * Whether the page shows the secret anywhere: in a field's value (the DOM
 * property: Preact sets it, never the `value` attribute) or in its text.
 */
function showsSecret(page: Page, secret: string): Promise<boolean> {
  return page.evaluate(
    (wanted) =>
      document.body.innerText.includes(wanted) ||
      [...document.querySelectorAll('input, textarea')].some((field) =>
        (field as HTMLInputElement | HTMLTextAreaElement).value.includes(wanted),
      ),
    secret,
  );
}

describeConsole(
  'console: webhooks',
  ({ api, consoleUrl, newPage, viewerKey }) => {
    const auth = { authorization: `Bearer ${ADMIN_KEY}` };
    const endpoints = async (facility: number) =>
      (await api.get(`/admin/facilities/${facility}/webhook-endpoints`, auth)).body.webhook_endpoints as {
        id: number;
        url: string;
        enabled: boolean;
        types: string[];
        description: string | null;
      }[];
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    it('adds an endpoint and shows its secret once, sends a test event and shows it delivered', async () => {
      const facility = api.newFacility();
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No webhook endpoints yet.').waitFor();
      await assertAccessible(page, 'webhooks, empty');
      await page.getByRole('link', { name: 'Add endpoint' }).click();
      await page.getByRole('heading', { name: 'Add endpoint', level: 1 }).waitFor();
      // Not a URL: the service's field error is shown beside the URL field.
      await page.getByLabel('URL').fill('not a url');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const urlError = page
        .locator('.field.invalid', { has: page.getByLabel('URL') })
        .locator('.field-error');
      await urlError.waitFor();
      assert.equal(await page.getByLabel('URL').getAttribute('aria-invalid'), 'true');
      await assertAccessible(page, 'add endpoint, refused');
      await screenshot(page, `webhooks-form-${api.dialect}`);
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByLabel('member.created').check();
      await page.getByLabel('member.status_changed').check();
      await page.getByLabel('Description').fill('Door access');
      // A double click adds one endpoint: the form holds a second submit while the first runs.
      await page.getByRole('button', { name: 'Add endpoint' }).dblclick();
      await page.getByRole('heading', { name: 'Endpoint added' }).waitFor();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      assert.match(secret, /^whsec_/);
      await page.getByText('it will not be shown again').waitFor();
      assert.equal(await showsSecret(page, secret), true, 'the check sees the secret where it is shown');
      const listed = await endpoints(facility);
      assert.equal(listed.length, 1);
      assert.deepEqual(
        [listed[0].url, listed[0].types.sort(), listed[0].description, listed[0].enabled],
        [receiver.url, ['member.created', 'member.status_changed'], 'Door access', true],
      );
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await page.getByText(/Copied to the clipboard|press Ctrl\+C/).waitFor();
      await assertAccessible(page, 'endpoint added');
      await screenshot(page, `webhooks-secret-${api.dialect}`);

      // Back to the list: the secret is gone, and the console never shows it again.
      await page.goBack();
      await page.getByRole('link', { name: receiver.url }).waitFor();
      await page.getByRole('cell', { name: 'member.created, member.status_changed' }).waitFor();
      assert.equal(await showsSecret(page, secret), false, 'the list shows the secret again');
      await assertAccessible(page, 'webhooks list');
      await screenshot(page, `webhooks-list-${api.dialect}`);
      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { name: receiver.url }).waitFor();
      await page.getByText('No deliveries yet.').waitFor();
      assert.equal(await showsSecret(page, secret), false, "the endpoint's page shows the secret again");

      const before = receiver.received.length;
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Test event queued').waitFor();
      await page.locator('.deliveries .badge', { hasText: 'succeeded' }).waitFor({ timeout: 15_000 });
      const ping = receiver.received.slice(before).map((r) => JSON.parse(r.body));
      assert.deepEqual(
        ping.map((m) => [m.type, m.facility_id, m.data.endpoint_id]),
        [['ping', facility, listed[0].id]],
      );
      const row = page.locator('.deliveries tbody tr').first();
      assert.match((await row.textContent()) ?? '', /ping.*succeeded.*1.*204/s);
      assert.equal(await page.getByRole('button', { name: /Retry/ }).count(), 0);
      await assertAccessible(page, 'endpoint page');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await screenshot(page, 'webhooks');
      await page.setViewportSize({ width: 375, height: 800 });
      await assertAccessible(page, 'endpoint page at 375 px');
      await screenshot(page, `webhooks-375-${api.dialect}`);
      assertNoPageProblems(page);
    });

    it('gives a viewer key no write control (the service keeps webhooks to admin keys)', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        `/admin/facilities/${facility}/webhook-endpoints`,
        { url: receiver.url },
        auth,
      );
      const page = await newPage();
      await signIn(page, consoleUrl(), await viewerKey([facility]), facility);
      // Not offered in the navigation; opened by its address, the service's refusal is shown.
      assert.equal(await page.getByRole('link', { name: 'Webhooks' }).count(), 0);
      await page.goto(`${consoleUrl()}#/f/${facility}/webhooks`);
      await page.getByText(/may not read and manage webhook endpoints/).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Add endpoint' }).count(), 0);
      await assertAccessible(page, 'webhooks as a viewer');
      await page.goto(`${consoleUrl()}#/f/${facility}/webhooks/${created.body.id}`);
      await page.getByText(/may not read and manage webhook endpoints/).waitFor();
      assert.equal(
        await page.getByRole('button', { name: /Edit|Send test event|Rotate secret|Delete|Retry/ }).count(),
        0,
      );
      await page.goto(`${consoleUrl()}#/f/${facility}/webhooks/new`);
      await page.getByText('Your role here does not allow this.').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Add endpoint' }).count(), 0);
      assertNoPageProblems(page);
    });
  },
  { config: WEBHOOK_TEST_CONFIG },
);
