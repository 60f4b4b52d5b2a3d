/**
 * The console's webhook endpoint page in Chromium, on SQLite and PostgreSQL:
 * rotate the secret (shown once), retry a failed delivery, an edit refused
 * with 412 after a change made elsewhere, disable by an edit, delete after a
 * dialog.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  type Receiver,
  startReceiver,
  WEBHOOK_TEST_CONFIG,
} from '../../../src/modules/webhooks/webhook.fixtures.js';
import { eventually } from '../../../test/eventually.js';
import { ADMIN_KEY, assertAccessible, assertNoPageProblems, describeConsole, signIn } from './browser.js';

describeConsole(
  'console: a webhook endpoint',
  ({ api, consoleUrl, newPage }) => {
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

    it('rotates the secret, disables by an edit (a 412 first, from a change made elsewhere), retries a failed delivery and deletes after a dialog', async () => {
      const facility = api.newFacility();
      const created = await api.post(
        `/admin/facilities/${facility}/webhook-endpoints`,
        { url: receiver.url, description: 'Billing' },
        auth,
      );
      // A failed delivery to retry: a ping, once delivered, marked as if every attempt had failed.
      const ping = await api.post(
        `/admin/facilities/${facility}/webhook-endpoints/${created.body.id}/test`,
        undefined,
        auth,
      );
      await eventually('the ping delivered', async () => {
        const deliveries = await api.get(
          `/admin/facilities/${facility}/webhook-endpoints/${created.body.id}/deliveries`,
          auth,
        );
        return deliveries.body.deliveries[0]?.status === 'succeeded';
      });
      await api.app.db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', attempts: 8, last_response_status: 503 })
        .where('id', '=', ping.body.id)
        .execute();
      const page = await newPage();
      await signIn(page, consoleUrl(), ADMIN_KEY, facility);
      await page.goto(`${consoleUrl()}#/f/${facility}/webhooks/${created.body.id}`);
      await page.getByRole('heading', { name: receiver.url }).waitFor();

      await page.locator('.deliveries .badge', { hasText: 'failed' }).waitFor();
      await page.getByRole('button', { name: `Retry delivery ${ping.body.id}` }).click();
      await page.locator('.deliveries .badge', { hasText: 'succeeded' }).waitFor({ timeout: 15_000 });

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
      await rotate.getByText('stays valid for 24 hours').waitFor();
      await assertAccessible(page, 'rotate dialog');
      await rotate.getByRole('button', { name: 'Rotate secret' }).click();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, created.body.secret);
      await page.getByText('The previous secret stays valid for 24 hours').waitFor();

      // Someone else edits the endpoint while this page shows it: the save is a 412, then a reload.
      await page.getByRole('button', { name: 'Edit' }).click();
      await api.patch(
        `/admin/facilities/${facility}/webhook-endpoints/${created.body.id}`,
        { description: 'Payroll' },
        auth,
      );
      await page.getByLabel(/Enabled/).uncheck();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Someone else changed this').waitFor();
      assert.equal((await endpoints(facility))[0].enabled, true, 'the stale save changed nothing');
      await page.getByRole('button', { name: 'Reload the latest version' }).click();
      await page.getByText('Payroll').waitFor();

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel(/Enabled/).uncheck();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Endpoint saved.').waitFor();
      await page.locator('.screen-head .badge', { hasText: 'disabled' }).waitFor();
      const [disabled] = await endpoints(facility);
      assert.deepEqual([disabled.enabled, disabled.description], [false, 'Payroll']);

      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await endpoints(facility)).length, 1);
      await page.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('No webhook endpoints yet.').waitFor();
      assert.equal((await endpoints(facility)).length, 0);
      assertNoPageProblems(page);
    });
  },
  { config: WEBHOOK_TEST_CONFIG },
);
