import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from './config.js';
import { type Database, openDatabase, parseDatabaseUrl } from './db/database.js';
import { describeDatabase, UsageError } from './startup-failure.js';

/** Says on stderr which database a command works on, so that stdout stays the command's answer. */
export function announceDatabase(config: Config): void {
  process.stderr.write(`facility-admin: database ${describeDatabase(config.databaseUrl)}\n`);
}

/**
 * Opens the database of a CLI command. A missing SQLite file is
 * created only when `create` is set: a command run from the wrong directory
 * must fail rather than work on a new, empty database that the service
 * never reads.
 */
export function openCommandDatabase(
  config: Config,
  options: { create: boolean; createHint?: string },
): Database {
  announceDatabase(config);
  const { dialect, target } = parseDatabaseUrl(config.databaseUrl);
  const file = resolve(target);
  const missing = dialect === 'sqlite' && target !== ':memory:' && target !== '' && !existsSync(file);
  if (missing && !options.create) {
    throw new UsageError(
      `no SQLite database at ${file} (DATABASE_URL=${config.databaseUrl}, from ${process.cwd()}); ` +
        `set DATABASE_URL to the service's database${options.createHint ? `, or ${options.createHint}` : ''}`,
    );
  }
  return openDatabase(config.databaseUrl, { fileMustExist: !options.create });
}
