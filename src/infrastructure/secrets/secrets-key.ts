import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Config } from '../../config.js';
import { parseDatabaseUrl } from '../../db/database.js';

/**
 * The key that encrypts stored secrets: SECRETS_KEY when set. Otherwise, on
 * SQLite, a key made on first start and kept beside the database file
 * (`<file>.secrets-key`, readable by its owner only), or one per process for
 * an in-memory database; on PostgreSQL none (webhooks are then unavailable:
 * a key kept on one instance's disk would not serve the others).
 */
export function loadSecretsKey(config: Config): Buffer | undefined {
  if (config.secretsKey) return config.secretsKey;
  const { dialect, target } = parseDatabaseUrl(config.databaseUrl);
  if (dialect !== 'sqlite') return undefined;
  if (target === ':memory:' || target === '') return randomBytes(32);
  const path = `${target}.secrets-key`;
  if (!existsSync(path)) {
    // 'wx': of two processes starting together, one writes the key and the other reads it.
    try {
      writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte key in hex`);
  return key;
}
