import { type Kysely, PostgresAdapter } from 'kysely';
import type { DialectName } from './database.js';

// biome-ignore lint/suspicious/noExplicitAny: works for the typed database, a transaction and migrations alike
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
