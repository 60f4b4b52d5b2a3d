/**
 * The console's end-to-end harness: the real service (test/harness.ts) listening
 * on a port, and Debian's Chromium driven by playwright-core, headless and kept
 * off the network: every request to another origin is aborted and fails the test.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { Config } from '../../../src/config.js';
import type { DialectName } from '../../../src/db/database.js';
import { createApiKey } from '../../../src/infrastructure/api-keys/api-key.service.js';
import { type Api, DIALECTS, describeEachDialect, type TestClock, testClock } from '../../../test/harness.js';

export const ADMIN_KEY = 'console-test-admin-key';
/**
 * When the console's tests happen: the service's clock and every page's
 * (Date in the browser) stand still at this instant, so that "today" is the
 * same day in the service, in the console and in the test, whenever the tests
 * run. It lies before any machine's own time: the delivery worker, which runs
 * on that, finds the test pings the service queues already due.
 */
export const CONSOLE_TIME = '2026-03-02T09:30:00.000Z';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags that keep Chromium quiet and off the network (no updates, sync, QUIC or background fetches).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const RESULTS_DIR = new URL('../../../test-results/', import.meta.url);

export interface ConsoleHarness {
  api: Api;
  /** http://127.0.0.1:<port>/console/ */
  consoleUrl: () => string;
  /**
   * A new browser tab (its own context: its own sessionStorage and cookies), 1440 px wide unless
   * told; `allowOrigins` may be reached besides the service (an identity provider on loopback).
   */
  newPage: (options?: { width?: number; allowOrigins?: string[] }) => Promise<Page>;
  /** A viewer key for these facilities. */
  viewerKey: (facilityIds: number[]) => Promise<string>;
  /** The clock of the service and of every page (CONSOLE_TIME). */
  clock: TestClock;
}

/** One suite per database: the service listens with API keys on, and one Chromium serves every test. */
export function describeConsole(
  name: string,
  suite: (harness: ConsoleHarness) => void,
  options: {
    dialects?: readonly DialectName[];
    authMode?: 'api-key' | 'none';
    /** More of the service's settings (the webhooks screen allows http to a receiver on loopback). */
    config?: Partial<Config>;
    /** SQLite in a file, so that a second connection (another process, say) can change it. */
    sqliteOnDisk?: boolean;
    /**
     * When the service's and the pages' clocks stand (CONSOLE_TIME unless told). A test with
     * a session cookie starts at the machine's time: Chromium expires cookies on its own clock.
     */
    startAt?: string;
    /** The port to listen on, per database (an identity provider must know the redirect URI first); else any. */
    port?: (dialect: DialectName) => number;
  } = {},
): void {
  const clock = testClock(options.startAt ?? CONSOLE_TIME);
  describeEachDialect(
    name,
    (api) => {
      let browser: Browser;
      let origin = '';
      const contexts: BrowserContext[] = [];
      before(async () => {
        await api.app.listen({ port: options.port?.(api.dialect) ?? 0, host: '127.0.0.1' });
        origin = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
        browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      });
      after(async () => {
        await browser?.close();
      });
      suite({
        api,
        clock,
        consoleUrl: () => `${origin}/console/`,
        viewerKey: async (facilityIds) =>
          (await createApiKey(api.app.db, { name: 'front desk', role: 'viewer', facilityIds })).secret,
        newPage: async ({ width = 1440, allowOrigins = [] } = {}) => {
          const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'UTC' });
          contexts.push(context);
          const page = await context.newPage();
          await page.clock.setFixedTime(clock.now());
          await lockDown(page, [origin, ...allowOrigins]);
          return page;
        },
      });
    },
    { ...options.config, authMode: options.authMode ?? 'api-key', adminApiKey: ADMIN_KEY },
    { dialects: options.dialects ?? DIALECTS, now: clock.now, sqliteOnDisk: options.sqliteOnDisk },
  );
}

/** Nothing leaves this machine: a request to another origin is aborted and recorded; so is a CSP violation. */
async function lockDown(page: Page, origins: string[]): Promise<void> {
  const problems: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (origins.some((origin) => url.startsWith(`${origin}/`)) || url.startsWith('data:')) {
      return route.continue();
    }
    problems.push(`request to another origin: ${url}`);
    return route.abort();
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  (page as Page & { problems: string[] }).problems = problems;
}

/** The requests to other hosts, CSP violations and script errors the page had: none, in every test. */
export function assertNoPageProblems(page: Page, ignore?: RegExp): void {
  const problems = (page as Page & { problems?: string[] }).problems ?? [];
  assert.deepEqual(
    problems.filter((problem) => !ignore?.test(problem)),
    [],
  );
}

/** Signs in with a key on the sign-in form (behind its link), and opens a facility's screen. */
export async function signIn(page: Page, url: string, key: string, facilityId?: number): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in with an API key' }).click();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose a facility' }).waitFor();
  if (facilityId !== undefined) {
    await page.goto(`${url}#/f/${facilityId}/members`);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
  }
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is the script evaluated above
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
      }));
  });
  assert.deepEqual(violations, [], `axe on ${screen}`);
}

/** A full-page screenshot in test-results/ (console-<name>.png), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`console-${name}.png`, RESULTS_DIR).pathname, fullPage: true });
}
