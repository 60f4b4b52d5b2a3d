import type { Insertable } from 'kysely';
import type { AuditEventsTable } from '../schema.js';

export type AuditEntryValues = Required<Omit<Insertable<AuditEventsTable>, 'id'>>;

/** An event as it is inserted (src/journal/event-json.ts builds it). */
export type EventValues = {
  facility_id: number;
  type: string;
  /** `plan:7`, `member:42`, `policy:1`. */
  resource: string;
  occurred_at: string;
  /** The JSON text of `data`, sent as it is stored. */
  data: string;
  /** The JSON text of who did it ({type, id, name}). */
  actor: string;
};

/** A write transaction's journal: its audit entries and its events, in the order of its changes. */
export interface JournalRows {
  audit: AuditEntryValues[];
  events: EventValues[];
}

/**
 * The facilities a journal writes to (the whole service's entries, facility
 * 0, excluded): each gets a row in `facilities` if it has none, so that a
 * facility used before it was named is listed (src/modules/facilities/).
 */
export function writtenFacilities(rows: JournalRows): number[] {
  return [...new Set(rows.audit.map((entry) => entry.facility_id).filter((id) => id > 0))];
}
