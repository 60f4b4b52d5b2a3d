import type { Executor } from '../../db/database.js';
import { feedVersion } from './event.repository.js';

/**
 * Tells long-polling readers of the feed when to look again. One probe per
 * process, every `intervalMs` while anyone waits (feedVersion: one cheap
 * query), instead of one query per waiting reader; a reader looks again only
 * when the version changed. Works across processes and instances, since the
 * probe reads the database.
 */
export interface FeedWatcher {
  version(): string | undefined;
  /** Resolves when the version differs from `seen`, or after `timeoutMs`. */
  changedSince(seen: string | undefined, timeoutMs: number): Promise<void>;
  /** Readers waiting now. */
  waiting(): number;
  close(): void;
}

export function watchFeed(db: Executor, intervalMs: number): FeedWatcher {
  let current: string | undefined;
  const waiters = new Set<{ seen: string | undefined; wake: () => void }>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const probe = async () => {
    timer = undefined;
    try {
      current = await feedVersion(db);
    } catch {
      // A database that cannot be reached: the readers find out when they read.
      current = undefined;
    }
    for (const waiter of waiters) if (waiter.seen !== current) waiter.wake();
    schedule();
  };
  const schedule = () => {
    if (!closed && waiters.size > 0 && timer === undefined) timer = setTimeout(probe, intervalMs).unref();
  };

  return {
    version: () => current,
    changedSince(seen, timeoutMs) {
      return new Promise<void>((resolve) => {
        const waiter = {
          seen,
          wake: () => {
            clearTimeout(deadline);
            waiters.delete(waiter);
            resolve();
          },
        };
        const deadline = setTimeout(waiter.wake, timeoutMs);
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
