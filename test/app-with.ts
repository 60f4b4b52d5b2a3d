/**
 * An app of its own, for a test that needs settings, a log or a clock that
 * the suite's app (test/harness.ts) does not have: built on a database of its
 * own (in-memory SQLite unless one is given) and closed, with the database,
 * after the test that made it.
 */
import { Writable } from 'node:stream';
import { after } from 'node:test';
import { type App, type BuildOptions, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface OwnApp {
  app: App;
  database: Database;
  /** The lines the app logged, parsed, when a log level was given. */
  lines: LogLine[];
}

export async function appWith(
  overrides: Partial<Config>,
  options: {
    database?: Database;
    /** Collects the log from this level up into `lines`; no log without it. */
    logLevel?: 'debug' | 'info' | 'warn' | 'error';
  } & Pick<BuildOptions, 'now' | 'rateLimitClock'> = {},
): Promise<OwnApp> {
  const { database = openDatabase('sqlite::memory:'), logLevel, ...clocks } = options;
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = { ...loadConfig({}), ...overrides };
  const logger = logLevel === undefined ? (false as const) : { level: logLevel, stream };
  const app = await buildApp(config, { database, logger, ...clocks });
  after(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, lines };
}
