import { sql } from 'kysely';
import type { Principal } from '../core/principal.js';
import type { WriteContext } from '../core/write-context.js';
import type { Db, Executor, Trx } from '../db/database.js';
import { diffFields, type Fields } from './change-diff.js';
import { eventOfChange } from './event-json.js';
import type { ChangeReport } from './event-types.js';
import { type AuditEntryValues, appendJournal, type EventValues } from './journal.repository.js';

/**
 * The journal of writes: every change is one audit entry and, when it is an
 * event type, one event of the change feed (which webhooks deliver). A
 * write's entries are kept with its transaction and appended as the
 * transaction's last statement, so they commit with the change or not at
 * all, and the feed's order is the commit order (journal.repository.ts).
 */
interface JournalEntry {
  audit: AuditEntryValues;
  event: EventValues | undefined;
}

const pendingEntries = new WeakMap<Executor, JournalEntry[]>();

/**
 * Runs a write in a transaction whose journal is appended before COMMIT.
 * Every write goes through here: journalChange refuses a transaction that
 * did not start here.
 */
export async function inWriteTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const entries: JournalEntry[] = [];
    pendingEntries.set(trx, entries);
    const result = await work(trx);
    if (entries.length > 0) {
      const events = entries.flatMap((entry) => (entry.event ? [entry.event] : []));
      await appendJournal(trx, { audit: entries.map((entry) => entry.audit), events });
    }
    return result;
  });
}

/**
 * Runs part of a write in a savepoint: when it throws, its changes and its
 * journal entries are undone and the rest of the transaction goes on (an
 * import's failing row).
 */
export async function inSavepoint<T>(trx: Executor, work: () => Promise<T>): Promise<T> {
  const entries = entriesOf(trx);
  const mark = entries.length;
  await sql`savepoint journal_part`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint journal_part`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint journal_part`.execute(trx);
    await sql`release savepoint journal_part`.execute(trx);
    entries.length = mark;
    throw error;
  }
}

function entriesOf(trx: Executor): JournalEntry[] {
  const entries = pendingEntries.get(trx);
  if (!entries) throw new Error('a write is journaled only inside inWriteTransaction');
  return entries;
}

/** A change as a write reports it to the journal. */
export interface Change extends ChangeReport {
  before: Fields | null;
  after: Fields | null;
}

/**
 * Records a successful write: its audit entry (who, what changed) and its
 * event, appended when the write's transaction ends.
 */
export function journalChange(trx: Executor, context: WriteContext, change: Change): void {
  const entries = entriesOf(trx);
  const occurredAt = context.now.toISOString();
  entries.push({
    audit: {
      facility_id: change.facilityId,
      resource_type: change.resourceType,
      resource_id: String(change.resourceId),
      action: change.action,
      api_key_id: context.principal.keyId,
      staff_user_id: context.principal.staffUserId,
      api_key_name: context.principal.actor.name,
      changes: JSON.stringify(diffFields(change.before, change.after)),
      request_id: context.requestId,
      occurred_at: occurredAt,
    },
    event: eventOfChange(change, occurredAt, actorJsonOf(context.principal)),
  });
}

/** The actor's JSON, made once per principal: every event of a request names the same one. */
const actorJsons = new WeakMap<Principal, string>();
function actorJsonOf(principal: Principal): string {
  let json = actorJsons.get(principal);
  if (json === undefined) {
    json = JSON.stringify(principal.actor);
    actorJsons.set(principal, json);
  }
  return json;
}
