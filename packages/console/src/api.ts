import { type Client, createClient, ProblemError, type Session } from '@facility-admin/client';

/** Sent on window when the service answers 401: the key or the session is no longer valid. */
export const UNAUTHENTICATED_EVENT = 'facility-admin:unauthenticated';

/** The key lives in sessionStorage: it goes with the tab, and is sent only to this service (same origin). */
const KEY_ITEM = 'facility-admin.api-key';

/** The service's address: this page is at <BASE_PATH>/console/, the API at <BASE_PATH>. */
export function serviceBaseUrl(location: Location = window.location): string {
  const path = location.pathname.replace(/\/console(\/.*)?$/, '');
  return `${location.origin}${path}`;
}

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}

/** A client with a key, or (none) on the person's session cookie, which the browser sends same-origin. */
export function clientFor(apiKey?: string): Client {
  // One retry at most: a person is waiting, and can press again.
  return createClient({
    baseUrl: serviceBaseUrl(),
    apiKey: apiKey || undefined,
    retries: { max: 1, maxDelayMs: 2000 },
    // A key revoked while the console is open: every screen would fail, so the app signs out (app.tsx).
    fetch: async (request) => {
      const response = await fetch(request);
      if (response.status === 401) window.dispatchEvent(new Event(UNAUTHENTICATED_EVENT));
      return response;
    },
  });
}

export interface SignedIn {
  client: Client;
  session: Session;
  /** Signed in with an API key (kept in this tab), not as a person with a session cookie. */
  withKey: boolean;
}

/**
 * Asks the service who this key is, or without one who the session cookie
 * is (a person signed in), or whether authentication is off (AUTH_MODE=none).
 */
export async function signIn(apiKey?: string): Promise<SignedIn> {
  const client = clientFor(apiKey);
  const session = await client.session.get();
  return { client, session, withKey: Boolean(apiKey) };
}

/** A new Idempotency-Key: kept by a form until its create succeeds, so a double submit creates once. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export { ProblemError };

/**
 * The Idempotency-Key for a create's body: the same body gets the same key (a
 * double submit, a retry after a lost answer creates once); a changed body
 * (after fixing a field) gets a new one, which the service would otherwise refuse
 * as a reused key.
 */
export function idempotencyKeys(): (body: unknown) => string {
  let last: { body: string; key: string } | undefined;
  return (body) => {
    const text = JSON.stringify(body);
    if (last?.body !== text) last = { body: text, key: newIdempotencyKey() };
    return last.key;
  };
}
