/** Signing people in through the API, as the console does, for the session module's tests. */
import assert from 'node:assert/strict';
import { bearer } from '../../../test/access-table.js';
import type { Api, TestResponse } from '../../../test/harness.js';
import type { SmtpTestServer } from '../../infrastructure/mail/smtp-server.fixtures.js';

/** What the console's own pages send with a change (the browser sets it). */
export const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
export const PASSWORD = 'a long and unusual passphrase';

/** The session cookie a response set, as the browser sends it back; undefined when it set none. */
export function sessionCookieOf(response: TestResponse): string | undefined {
  const header = [response.headers['set-cookie'] ?? []].flat().map(String).join('\n');
  const match = /(?:^|\n)((?:__Host-)?fa_session)=([^;]*);/.exec(header);
  return match ? `${match[1]}=${match[2]}` : undefined;
}

export function tokenOf(url: string): string {
  const token = new URL(url.replace('#/link', 'link')).searchParams.get('token');
  assert.ok(token, `a token in ${url}`);
  return token;
}

/**
 * A person invited by the admin key with a viewer role in the facility, who set PASSWORD by the
 * link: the answer's, or the e-mail's when the service sends e-mail (to `smtp`).
 */
export async function signedUpPerson(api: Api, adminKey: string, facility: number, smtp?: SmtpTestServer) {
  const email = `person${facility}.${Math.random().toString(36).slice(2, 8)}@example.test`;
  const invited = await api.post(
    '/admin/staff',
    { email, name: `Person ${facility}`, roles: [{ facility_id: facility, role: 'viewer' }] },
    bearer(adminKey),
  );
  assert.equal(invited.status, 201, invited.text);
  const link = smtp
    ? (await smtp.waitForMessage(email)).links.find((url) => url.includes('token='))
    : invited.body.invitation.url;
  assert.ok(link, 'an invitation link');
  const used = await api.post(
    '/admin/session/link',
    { token: tokenOf(link), password: PASSWORD },
    SAME_ORIGIN,
  );
  assert.equal(used.status, 200, used.text);
  const cookie = sessionCookieOf(used);
  assert.ok(cookie);
  return { id: Number(invited.body.id), email, name: String(invited.body.name), session: signedIn(cookie) };
}

/** The headers of a request of the console signed in by the cookie. */
export function signedIn(cookie: string): Record<string, string> {
  return { cookie, ...SAME_ORIGIN };
}

/** Signs the person in once more (another browser): its session's headers. */
export async function signInAgain(
  api: Api,
  email: string,
  password = PASSWORD,
  userAgent = 'Second browser',
) {
  const response = await api.post(
    '/admin/session',
    { email, password },
    { ...SAME_ORIGIN, 'user-agent': userAgent },
  );
  assert.equal(response.status, 200, response.text);
  const cookie = sessionCookieOf(response);
  assert.ok(cookie);
  return signedIn(cookie);
}
