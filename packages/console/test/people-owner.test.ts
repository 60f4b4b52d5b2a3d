/**
 * The owner's screens without e-mail set up, in Chromium, on SQLite and
 * PostgreSQL: an invitation's link shown to copy (and followed), a person's
 * roles changed, and API keys: the secret shown once, the key then
 * working, revoked with a confirmation.
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
import { ADMIN, acceptInvitation, namedFacility } from './people.js';

describeConsole(
  'console: staff links to copy and API keys',
  ({ api, consoleUrl, newPage }) => {
    it('shows the invitation link to copy, changes roles, and creates and revokes a key', async () => {
      const gym = await namedFacility(api, 'Northside');
      const owner = await newPage();
      await signIn(owner, consoleUrl(), ADMIN_KEY);
      await owner.getByRole('link', { name: 'Staff' }).click();
      await owner.getByRole('link', { name: 'Invite a person' }).click();
      const email = `vic.${api.dialect}@example.test`;
      await owner.getByLabel('E-mail').fill(email);
      await owner.getByLabel('Name').fill('Vic Viewer');
      await owner.getByRole('button', { name: 'Add a role' }).click();
      await owner.getByLabel('Facility of role 1').selectOption({ label: gym.name });
      await owner.getByRole('button', { name: 'Send invitation' }).click();
      await owner.getByText('E-mail is not set up on this service').waitFor();
      const link = await owner.getByLabel('Link', { exact: true }).inputValue();
      assert.match(link, /\/console\/#\/link\?purpose=invitation&token=/);
      await assertAccessible(owner, 'invitation link to copy');
      await screenshot(owner, 'staff-link-to-copy');

      const vic = await newPage();
      await acceptInvitation(vic, consoleUrl(), link.slice(link.indexOf('#')));
      await owner.getByRole('link', { name: 'Open Vic Viewer' }).click();
      await owner.getByRole('button', { name: 'Change roles' }).click();
      await owner.getByLabel('Role 1', { exact: true }).selectOption({ label: 'Manager' });
      await owner.getByRole('button', { name: 'Save roles' }).click();
      await owner.getByText('Roles saved.').waitFor();
      await owner.getByText(`Manager · ${gym.name}`).waitFor();
      const person = await api.get(`/admin/staff?state=active`, ADMIN);
      const saved = person.body.staff.find((p: { email: string }) => p.email === email);
      assert.deepEqual(saved.roles, [{ facility_id: gym.id, role: 'manager' }]);
      await owner.getByRole('link', { name: 'Staff', exact: true }).first().click();
      await owner
        .getByRole('row', { name: /Vic Viewer/ })
        .getByText('active')
        .waitFor();
      await screenshot(owner, 'staff-list');

      await owner.getByRole('link', { name: 'API keys' }).click();
      await owner.getByRole('button', { name: 'Create a key' }).click();
      await owner.getByLabel('Name').fill(`door ${api.dialect}`);
      await owner.getByLabel('Role').selectOption({ label: 'Front desk' });
      await owner.getByLabel('All facilities').uncheck();
      await owner.getByLabel(gym.name).check();
      await owner.getByRole('button', { name: 'Create key' }).click();
      await owner.getByText('Copy this key now: it will not be shown again.').waitFor();
      const secret = await owner.getByLabel('Key', { exact: true }).inputValue();
      const asKey = await api.get('/admin/session', { authorization: `Bearer ${secret}` });
      assert.equal(asKey.status, 200);
      assert.equal(asKey.body.role, 'front_desk');
      assert.deepEqual(asKey.body.facility_ids, [gym.id]);
      const row = owner.getByRole('row', { name: new RegExp(`door ${api.dialect}`) });
      await row.getByText(gym.name).waitFor();
      await assertAccessible(owner, 'API keys');
      await screenshot(owner, 'api-keys');
      await row.getByRole('button', { name: /Revoke/ }).click();
      await owner.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await owner.getByText(`Key “door ${api.dialect}” revoked.`).waitFor();
      await row.getByText('revoked').waitFor();
      assert.equal((await api.get('/admin/session', { authorization: `Bearer ${secret}` })).status, 401);
      assert.equal(await row.getByRole('button', { name: /Revoke/ }).count(), 0);
      for (const page of [owner, vic]) assertNoPageProblems(page);
    });
  },
  { startAt: new Date().toISOString() },
);
