import type { CompiledQuery } from 'kysely';
import { compileOnce } from '../engine/compile-once.js';
import type { Executor } from '../engine/executor.js';
import {
  type AuditEntryValues,
  type EventValues,
  type JournalRows,
  writtenFacilities,
} from '../engine/journal-rows.js';

const insertAuditEntry = compileOnce<AuditEntryValues, never>((db, param) =>
  db.insertInto('audit_events').values({
    facility_id: param('facility_id'),
    resource_type: param('resource_type'),
    resource_id: param('resource_id'),
    action: param('action'),
    api_key_id: param('api_key_id'),
    api_key_name: param('api_key_name'),
    changes: param('changes'),
    request_id: param('request_id'),
    occurred_at: param('occurred_at'),
    staff_user_id: param('staff_user_id'),
  }),
);

const insertFacility = compileOnce<{ id: number; at: string }, never>((db, param) =>
  db
    .insertInto('facilities')
    .values({ id: param('id'), created_at: param('at'), updated_at: param('at') })
    .onConflict((conflict) => conflict.column('id').doNothing()),
);

const insertEvent = compileOnce<EventValues, never>((db, param) =>
  db.insertInto('events').values({
    facility_id: param('facility_id'),
    type: param('type'),
    resource: param('resource'),
    occurred_at: param('occurred_at'),
    data: param('data'),
    actor: param('actor'),
  }),
);

/**
 * The journal as a row per entry. The feed needs no lock to be in commit
 * order: the one writer commits its transactions in the order of their ids.
 */
export async function appendJournalRowByRow(
  trx: Executor,
  rows: JournalRows,
  runNow: (db: Executor, query: CompiledQuery<never>) => Promise<unknown>,
): Promise<void> {
  for (const entry of rows.audit) await runNow(trx, insertAuditEntry(trx, entry));
  for (const event of rows.events) await runNow(trx, insertEvent(trx, event));
  const at = rows.audit[0]?.occurred_at;
  if (at === undefined) return;
  for (const id of writtenFacilities(rows)) await runNow(trx, insertFacility(trx, { id, at }));
}
