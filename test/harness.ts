/**
 * One suite over every dialect: each test file calls `describeEachDialect`,
 * which builds the real app on SQLite (in memory) and on a fresh PostgreSQL
 * database that is dropped afterwards. Tests isolate themselves by using a
 * new facility id each (facilities are implicit), so no cleanup runs between
 * tests.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import pg from 'pg';
import { type App, type BuildOptions, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type DialectName, openDatabase } from '../src/db/database.js';
import { noteAssertedCode } from './asserted-codes.js';
import { injectJson, type TestResponse } from './inject.js';

export type { TestResponse } from './inject.js';

export const DIALECTS = (process.env.TEST_DATABASES ?? 'sqlite,postgres')
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean) as DialectName[];

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Api {
  app: App;
  dialect: DialectName;
  request(
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  put(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  patch(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  delete(url: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** A facility id no other test in this file has used. */
  newFacility(): number;
}

let facilityCounter = 0;

export function describeEachDialect(
  name: string,
  suite: (api: Api) => void,
  configOverrides: Partial<Config> = {},
  options: {
    /** Fewer databases for a slow suite (the browser tests run some flows on SQLite only). */
    dialects?: readonly DialectName[];
    /** The app's clock, for tests of what dates do. */
    now?: BuildOptions['now'];
    /** SQLite in a file of its own rather than in memory: a second connection to it sees the app's data. */
    sqliteOnDisk?: boolean;
  } = {},
): void {
  const { dialects = DIALECTS, sqliteOnDisk = false, ...buildOptions } = options;
  for (const dialect of DIALECTS.filter((d) => dialects.includes(d))) {
    describe(`${name} [${dialect}]`, () => {
      const api = {} as Api;
      let dropDatabase: () => Promise<void> = async () => {};
      before(async () => {
        const test = await createTestDatabase(dialect, { sqliteOnDisk });
        dropDatabase = test.drop;
        const config = {
          ...loadConfig({}),
          databaseUrl: test.url,
          authMode: 'none' as const,
          // PostgreSQL needs SECRETS_KEY for webhooks (SQLite makes its own).
          secretsKey: randomBytes(32),
          ...configOverrides,
        };
        const database = openDatabase(test.url);
        const app = await buildApp(config, { database, logger: false, ...buildOptions });
        Object.assign(api, bindApi(app, dialect));
        const close = dropDatabase;
        dropDatabase = async () => {
          await app.close();
          await database.close();
          await close();
        };
      });
      after(() => dropDatabase());
      suite(api);
    });
  }
}

function bindApi(app: App, dialect: DialectName): Api {
  const request: Api['request'] = (method, url, body, headers = {}) =>
    injectJson(app, method, url, body, headers);
  return {
    app,
    dialect,
    request,
    get: (url, headers) => request('GET', url, undefined, headers),
    post: (url, body, headers) => request('POST', url, body, headers),
    put: (url, body, headers) => request('PUT', url, body, headers),
    patch: (url, body, headers) => request('PATCH', url, body, headers),
    delete: (url, headers) => request('DELETE', url, undefined, headers),
    newFacility: () => ++facilityCounter,
  };
}

/** Removes a SQLite database file and the WAL, shared-memory and journal files beside it. */
export function removeSqliteFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
}

/** A fresh database for this test file: in-memory SQLite (or a file of its own), or a new PostgreSQL database. */
export async function createTestDatabase(
  dialect: DialectName,
  options: { sqliteOnDisk?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite' && options.sqliteOnDisk) {
    const file = join(mkdtempSync(join(tmpdir(), 'facility-admin-test-')), 'test.db');
    return { url: `sqlite:${file}`, drop: async () => removeSqliteFiles(file) };
  }
  if (dialect === 'sqlite') return { url: 'sqlite::memory:', drop: async () => {} };
  const name = `facility_admin_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ` +
        'Start it, point TEST_POSTGRES_URL at one, or run only SQLite with TEST_DATABASES=sqlite.',
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Asserts a problem+json answer with the given status and code, and returns its body. */
export function assertProblem(response: TestResponse, status: number, code: string) {
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status}: ${response.text}`,
  );
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  assert.equal(response.body.code, code);
  assert.equal(response.body.status, status);
  assert.equal(typeof response.body.detail, 'string');
  assert.equal(response.body.type, `urn:facility-admin:problem:${code}`);
  noteAssertedCode(code);
  return response.body;
}

/** Asserts a validation error that names the given fields (JSON pointer or parameter name). */
export function assertInvalid(response: TestResponse, ...fields: string[]) {
  const body = assertProblem(response, 400, 'validation_error');
  const named = body.errors.map((e: { field: string }) => e.field);
  for (const field of fields)
    assert.ok(named.includes(field), `expected an error for ${field}, got ${named.join(', ')}`);
  return body;
}

/** A clock a test sets and moves (BuildOptions.now): date-driven rules run without sleeping. */
export interface TestClock {
  now: () => Date;
  set(iso: string): void;
  advanceDays(days: number): void;
  advanceMs(ms: number): void;
  /** Today in UTC, plus `days`: YYYY-MM-DD. */
  today(days?: number): string;
}

export function testClock(start: string): TestClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (iso) => {
      current = new Date(iso);
    },
    advanceDays: (days) => {
      current = new Date(current.getTime() + days * 86_400_000);
    },
    advanceMs: (ms) => {
      current = new Date(current.getTime() + ms);
    },
    today: (days = 0) => new Date(current.getTime() + days * 86_400_000).toISOString().slice(0, 10),
  };
}
