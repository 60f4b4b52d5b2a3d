import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build -w @facility-admin/console` writes the console (from src/ and from dist/ alike). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../packages/console/dist/', import.meta.url));

/**
 * The console's own policy: its scripts, styles and images come from this
 * service only, and it talks to this service only (connect-src 'self').
 * Nothing inline runs; it may not be framed.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed file names change with their content: they may be cached for a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Serves the web console at /console/: index.html is revalidated on every
 * load (so a new build is seen at once), the hashed assets are cached for good.
 * Returns false when the console has not been built (nothing is served then).
 */
export async function registerConsole(app: FastifyInstance, basePath: string): Promise<boolean> {
  if (!existsSync(`${CONSOLE_DIR}index.html`)) return false;
  await app.register(async (scope) => {
    scope.addHook('onRequest', (_request, reply, done) => {
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('referrer-policy', 'no-referrer');
      done();
    });
    await scope.register(fastifyStatic, {
      root: CONSOLE_DIR,
      prefix: `${basePath}/console/`,
      // The router ignores trailing slashes: /console and /console/ are the route below.
      index: false,
      redirect: false,
      wildcard: true,
      cacheControl: false,
      etag: true,
      lastModified: false,
      setHeaders: (response, path) => {
        response.header('cache-control', path.includes('/assets/') ? ASSET_CACHE : 'no-cache');
      },
    });
    // The page's asset URLs are relative (./assets/…): it must be loaded as /console/, never /console.
    scope.get(`${basePath}/console/`, { schema: { hide: true } }, (request, reply) => {
      if (!request.url.split('?')[0].endsWith('/')) return reply.redirect(`${basePath}/console/`, 301);
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    });
  });
  return true;
}
