import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Which SQL dialect a database speaks, for the migrations only: each is
 * frozen in time, written once for both dialects' column types. Everything
 * else asks the engine what it can do (engine/engine.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run on an untyped Kysely
export function dialectOf(db: Kysely<any>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
