import { invalidField } from '../../core/errors.js';
import type { Executor } from '../../db/database.js';
import {
  type EventRow,
  FEED_START,
  type FeedFilter,
  type FeedPosition,
  readFeed,
} from './event.repository.js';
import type { FeedWatcher } from './feed-watcher.js';

export interface FeedPage {
  events: EventRow[];
  /** Where the next read starts: after the last event, or where this read started. */
  next: FeedPosition;
}

/**
 * One page of the feed. With `waitMs`, an empty page is held back until an
 * event arrives, the time is up, or `stop` aborts the wait (the watcher says
 * when to look again).
 */
export async function readFeedPage(
  db: Executor,
  watcher: FeedWatcher,
  filter: FeedFilter,
  waitMs: number,
  stop?: AbortSignal,
): Promise<FeedPage> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const seen = watcher.version(filter.facilityId);
    const events = await readFeed(db, filter);
    if (events.length > 0) return { events, next: { id: events[events.length - 1].id } };
    const left = deadline - performance.now();
    if (left <= 0 || stop?.aborted) return { events, next: filter.after };
    await watcher.changedSince(filter.facilityId, seen, left, stop);
  }
}

/**
 * `ev:0:<id>`, base64url. The 0 stood for the writing transaction's id of
 * PostgreSQL, which ordered the feed before migration 0031; a cursor issued
 * then is still read, by its id.
 */
const CURSOR_PATTERN = /^ev:(\d{1,20}):(\d{1,16})$/;

export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`ev:0:${position.id}`).toString('base64url');
}

export function decodeFeedCursor(cursor: string | undefined): FeedPosition {
  if (cursor === undefined) return FEED_START;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_PATTERN.exec(text);
  const id = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(id) || Buffer.from(text).toString('base64url') !== cursor) {
    throw invalidField('query', 'after', 'is not a cursor this service issued');
  }
  return { id };
}
