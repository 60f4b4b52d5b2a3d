import { createRequire } from 'node:module';
import type pg from 'pg';

let pgModule: typeof pg | undefined;

/** pg is loaded only when PostgreSQL is used: an SQLite process saves its memory. */
export function loadPg(): typeof pg {
  pgModule ??= createRequire(import.meta.url)('pg') as typeof pg;
  return pgModule;
}
