import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../schema.js';

export type Db = Kysely<DatabaseSchema>;
export type Trx = Transaction<DatabaseSchema>;
/** What repositories take as their first argument: the database or a transaction. */
export type Executor = Db | Trx;
