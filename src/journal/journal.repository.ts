import type { Executor } from '../db/database.js';
import { engineOf } from '../db/engine/engine.js';
import type { JournalRows } from '../db/engine/journal-rows.js';

export type { AuditEntryValues, EventValues, JournalRows } from '../db/engine/journal-rows.js';

/**
 * Appends a transaction's journal, as its last statement before COMMIT
 * (src/journal/journal.ts). The feed's order is each facility's commit
 * order: each engine keeps it its own way (Engine.appendJournal; on
 * PostgreSQL a per-facility lock held from this statement to COMMIT).
 */
export async function appendJournal(trx: Executor, rows: JournalRows): Promise<void> {
  await engineOf(trx).appendJournal(trx, rows);
}
