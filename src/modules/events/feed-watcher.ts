import type { Executor } from '../../db/database.js';
import { newestEventIds } from './event.repository.js';

/**
 * Tells long-polling readers of the feed when to look again. One probe per
 * process, every `intervalMs` while anyone waits (the newest event id of each
 * facility that readers wait on: one statement), instead of one query per
 * waiting reader; a reader looks again only when its facility's newest id
 * moved. Works across processes and instances, since the probe reads the
 * database.
 */
export interface FeedWatcher {
  /** The newest event id of the facility as last probed; undefined when not known. */
  version(facilityId: number): number | undefined;
  /**
   * Resolves when the facility's newest id differs from `seen`, after
   * `timeoutMs`, or when `stop` aborts (the reader's key was revoked, its
   * client went away).
   */
  changedSince(
    facilityId: number,
    seen: number | undefined,
    timeoutMs: number,
    stop?: AbortSignal,
  ): Promise<void>;
  /** Readers parked between two reads now (not every waiting request: long-requests.ts counts those). */
  waiting(): number;
  close(): void;
}

interface Waiter {
  facilityId: number;
  seen: number | undefined;
  wake: () => void;
}

export function watchFeed(db: Executor, intervalMs: number): FeedWatcher {
  let current = new Map<number, number>();
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const probe = async () => {
    timer = undefined;
    try {
      current = await newestEventIds(db, [...new Set([...waiters].map((waiter) => waiter.facilityId))]);
    } catch {
      // A database that cannot be reached: the readers find out when they read.
      current = new Map();
    }
    for (const waiter of waiters) if (waiter.seen !== current.get(waiter.facilityId)) waiter.wake();
    schedule();
  };
  const schedule = () => {
    if (!closed && waiters.size > 0 && timer === undefined) timer = setTimeout(probe, intervalMs).unref();
  };

  return {
    version: (facilityId) => current.get(facilityId),
    changedSince(facilityId, seen, timeoutMs, stop) {
      if (stop?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const waiter: Waiter = {
          facilityId,
          seen,
          wake: () => {
            clearTimeout(deadline);
            stop?.removeEventListener('abort', waiter.wake);
            waiters.delete(waiter);
            resolve();
          },
        };
        const deadline = setTimeout(waiter.wake, timeoutMs);
        stop?.addEventListener('abort', waiter.wake, { once: true });
        waiters.add(waiter);
        schedule();
      });
    },
    waiting: () => waiters.size,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const waiter of waiters) waiter.wake();
    },
  };
}
