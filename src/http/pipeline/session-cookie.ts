import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The console's session cookie: HttpOnly, SameSite=Lax, and Secure with the
 * `__Host-` prefix (bound to this host and path /, never set by a
 * subdomain) wherever the browser takes it: over HTTPS (request.protocol
 * follows TRUST_PROXY behind a TLS-terminating proxy) and on loopback,
 * which browsers treat as secure. Elsewhere over plain HTTP it is a plain
 * cookie, and the service warns at start (docs/security.md, "Sessions").
 */
const SECURE_NAME = '__Host-fa_session';
const PLAIN_NAME = 'fa_session';

function isSecureContext(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return true;
  const host = request.hostname.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The session secret the request carries, if any (a cookie of either name). */
export function sessionSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  const cookies = parseCookie(header);
  const secret = cookies[SECURE_NAME] ?? cookies[PLAIN_NAME];
  return secret !== undefined && /^[A-Za-z0-9_-]{43}$/.test(secret) ? secret : undefined;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  expiresAt: string,
): void {
  const secure = isSecureContext(request);
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: secure ? SECURE_NAME : PLAIN_NAME,
      value: secret,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      expires: new Date(expiresAt),
    }),
  );
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const secure = isSecureContext(request);
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: secure ? SECURE_NAME : PLAIN_NAME,
      value: '',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: 0,
    }),
  );
}

/**
 * Whether a request comes from a page of this service: the browser says so
 * (Sec-Fetch-Site: same-origin), or its Origin is this host. A cross-site
 * form or script sends the cookie with a POST only under SameSite=None, but
 * older browsers and same-site subdomains may: such a request is refused.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}
