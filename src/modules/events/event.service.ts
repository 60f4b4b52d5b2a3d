import { invalidField } from '../../core/errors.js';
import type { Executor } from '../../db/database.js';
import {
  type EventRow,
  type EventValues,
  FEED_START,
  type FeedFilter,
  type FeedPosition,
  readFeed,
} from './event.repository.js';
import { type ChangeReport, eventDataOf, eventTypeOf, resourceKeyOf } from './event-types.js';
import type { FeedWatcher } from './feed-watcher.js';

/**
 * The event row of a change, to be inserted by the audit trail in the write's
 * own transaction (src/modules/audit/audit.service.ts), which every write goes
 * through: the event commits with the change or not at all. Undefined for a
 * change that has no event type.
 */
export function eventOfChange(change: ChangeReport, occurredAt: string): EventValues | undefined {
  const type = eventTypeOf(change);
  if (type === undefined) return undefined;
  return {
    facility_id: change.facilityId,
    type,
    resource: resourceKeyOf(change),
    occurred_at: occurredAt,
    data: JSON.stringify(eventDataOf(change, type)),
  };
}

/** An event row once inserted with `id`, as webhooks deliver it. */
export function recordedEvent(event: EventValues, id: number): RecordedEvent {
  return {
    id,
    type: event.type,
    facility_id: event.facility_id,
    resource: event.resource,
    json: eventJson({ ...event, id }),
  };
}

/** An event just written, as webhooks deliver it. */
export interface RecordedEvent {
  id: number;
  type: string;
  facility_id: number;
  resource: string;
  /** The event's JSON, as the feed sends it. */
  json: string;
}

/** An event as the feed and webhooks send it, built from the stored JSON without parsing it. */
export function eventJson(
  row: Pick<EventRow, 'id' | 'type' | 'facility_id' | 'occurred_at' | 'data'>,
): string {
  return `{"id":${row.id},"type":${JSON.stringify(row.type)},"facility_id":${row.facility_id},"occurred_at":${JSON.stringify(row.occurred_at)},"data":${row.data}}`;
}

export interface FeedPage {
  events: EventRow[];
  /** Where the next read starts: after the last event, or where this read started. */
  next: FeedPosition;
}

/**
 * One page of the feed. With `waitMs`, an empty page is held back until an
 * event arrives or the time is up (the watcher says when to look again).
 */
export async function readFeedPage(
  db: Executor,
  watcher: FeedWatcher,
  filter: FeedFilter,
  waitMs: number,
): Promise<FeedPage> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const seen = watcher.version();
    const events = await readFeed(db, filter);
    if (events.length > 0) {
      const last = events[events.length - 1];
      return { events, next: { xid: last.xid, id: last.id } };
    }
    const left = deadline - Date.now();
    if (left <= 0) return { events, next: filter.after };
    await watcher.changedSince(seen, left);
  }
}

const CURSOR_PATTERN = /^ev:(\d{1,20}):(\d{1,16})$/;

export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`ev:${position.xid}:${position.id}`).toString('base64url');
}

export function decodeFeedCursor(cursor: string | undefined): FeedPosition {
  if (cursor === undefined) return FEED_START;
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const position = match ? { xid: BigInt(match[1]), id: Number(match[2]) } : undefined;
  if (!position || !Number.isSafeInteger(position.id) || encodeFeedCursor(position) !== cursor) {
    throw invalidField('query', 'after', 'is not a cursor this service issued');
  }
  return position;
}
