import { sql } from 'kysely';
import type { Executor } from '../engine/executor.js';
import {
  type AuditEntryValues,
  type EventValues,
  type JournalRows,
  writtenFacilities,
} from '../engine/journal-rows.js';

/**
 * The journal in one statement. The feed's order is each facility's commit
 * order, but ids are taken before commit, so the statement first takes a
 * transaction-scoped lock per facility of its events (in facility order: two
 * journals never wait on each other in a cycle), which it holds until
 * COMMIT: a facility's events get their ids one transaction after another,
 * each after the one before has committed. A reader therefore sees a prefix
 * of every facility's feed, and a cursor (the last id read) never passes an
 * event still to commit. The lock is held from this statement to COMMIT
 * only, and nothing else is locked after it. The audit entries, and the
 * row of each facility written that has none yet, go in the same statement:
 * one round trip.
 */
export async function appendJournalInOneStatement(trx: Executor, rows: JournalRows): Promise<void> {
  const audit = columnsOf(rows.audit, AUDIT_COLUMNS);
  const events = columnsOf(rows.events, EVENT_COLUMNS);
  const facilities = [...new Set(rows.events.map((event) => event.facility_id))].sort((a, b) => a - b);
  const written = writtenFacilities(rows);
  const occurredAt = rows.audit[0]?.occurred_at ?? new Date(0).toISOString();
  await sql`
    with feed_locks as materialized (
      select pg_advisory_xact_lock(-facility) from unnest(${facilities}::int8[]) as facility order by facility
    ), audit as (
      insert into audit_events
        (facility_id, resource_type, resource_id, action, api_key_id, api_key_name, changes, request_id,
         occurred_at, staff_user_id)
      select * from unnest(${audit.facility_id}::int8[], ${audit.resource_type}::text[],
        ${audit.resource_id}::text[], ${audit.action}::text[], ${audit.api_key_id}::int8[],
        ${audit.api_key_name}::text[], ${audit.changes}::text[], ${audit.request_id}::text[],
        ${audit.occurred_at}::timestamptz[], ${audit.staff_user_id}::int8[])
    ), known_facilities as (
      insert into facilities (id, created_at, updated_at)
      select facility, ${occurredAt}::timestamptz, ${occurredAt}::timestamptz
      from unnest(${written}::int8[]) as facility
      on conflict (id) do nothing
    )
    insert into events (facility_id, type, resource, occurred_at, data, actor)
    select e.facility_id, e.type, e.resource, e.occurred_at, e.data, e.actor
    from (select count(*) from feed_locks) as locked,
      unnest(${events.facility_id}::int8[], ${events.type}::text[], ${events.resource}::text[],
        ${events.occurred_at}::timestamptz[], ${events.data}::text[], ${events.actor}::text[])
        with ordinality as e(facility_id, type, resource, occurred_at, data, actor, position)
    order by e.position`.execute(trx);
}

const AUDIT_COLUMNS = [
  'facility_id',
  'resource_type',
  'resource_id',
  'action',
  'api_key_id',
  'api_key_name',
  'changes',
  'request_id',
  'occurred_at',
  'staff_user_id',
] as const satisfies readonly (keyof AuditEntryValues)[];
const EVENT_COLUMNS = [
  'facility_id',
  'type',
  'resource',
  'occurred_at',
  'data',
  'actor',
] as const satisfies readonly (keyof EventValues)[];

/** Rows as one array per column, for unnest: one statement text whatever their number. */
function columnsOf<T, K extends keyof T>(rows: readonly T[], names: readonly K[]): { [N in K]: T[N][] } {
  const columns = {} as { [N in K]: T[N][] };
  for (const name of names) columns[name] = rows.map((row) => row[name]);
  return columns;
}
