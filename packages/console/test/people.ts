/** Staff for the console's tests: named facilities and invited people, made through the API with the admin key. */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Api } from '../../../test/harness.js';
import { ADMIN_KEY } from './browser.js';

export const ADMIN = { authorization: `Bearer ${ADMIN_KEY}` };
/** A password the NIST rules take: long, no composition asked. */
export const PASSWORD = 'correct horse battery staple';

let count = 0;

/** A facility with a name (unique per test run), created as the Facilities screen does. */
export async function namedFacility(api: Api, name: string): Promise<{ id: number; name: string }> {
  const unique = `${name} ${++count}`;
  const created = await api.post('/admin/facilities', { name: unique, timezone: 'Europe/London' }, ADMIN);
  assert.equal(created.status, 201, created.text);
  return { id: created.body.id, name: unique };
}

/** Invites a person (no SMTP: the answer carries the link); answers their id, e-mail and the link's `#/link?…`. */
export async function invitePerson(
  api: Api,
  name: string,
  roles: { facility_id: number | null; role: string }[],
): Promise<{ id: number; email: string; name: string; link: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${++count}@example.test`;
  const invited = await api.post('/admin/staff', { email, name, roles }, ADMIN);
  assert.equal(invited.status, 201, invited.text);
  const url: string = invited.body.invitation.url;
  return { id: invited.body.id, email, name, link: url.slice(url.indexOf('#')) };
}

/** Follows an invitation link in the console, chooses the password, and lands signed in. */
export async function acceptInvitation(page: Page, consoleUrl: string, link: string): Promise<void> {
  await page.goto(`${consoleUrl}${link}`);
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
}

/** Signs in with e-mail and password on the sign-in page. */
export async function signInWithPassword(page: Page, consoleUrl: string, email: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
}
