import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/**
 * Shares a process between its ordinary requests and its bulk work (import
 * chunks, export pages). Bulk work awaits `turn()` before each unit and
 * reports the unit's duration with `spent()`. While ordinary requests are
 * arriving (one in the last `windowMs`), bulk work gets at most `share` of
 * the time: a unit spends credit, credit comes back at `share` of the time
 * passing, and a unit waits while the credit is below zero. With no ordinary
 * request arriving, bulk work runs freely. Either way a unit starts only
 * after the event loop has had a turn, so requests that arrived during the
 * last unit are read first. Units are let through one at a time, each after
 * a turn of the event loop of its own, so that whether requests are arriving
 * is known before each.
 */
export interface BulkGovernor {
  /** An ordinary request arrived. */
  noteRequest(): void;
  /** Waits until a unit of bulk work may run. */
  turn(): Promise<void>;
  /** A unit of bulk work took this many milliseconds (of the process, or waiting on the database). */
  spent(ms: number): void;
  /** Milliseconds bulk work has waited in turn(), for the benchmark and metrics. */
  waitedMs(): number;
}

export interface BulkGovernorOptions {
  /** The window that ordinary requests are looked for in, and the shortest wait. Default 100 ms. */
  windowMs?: number;
  /** The part of the time bulk work may take while ordinary requests arrive (0 to 1). Default 0.5. */
  share?: number;
  /** The clock and the wait, for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

export function createBulkGovernor(options: BulkGovernorOptions = {}): BulkGovernor {
  const windowMs = options.windowMs ?? 100;
  const share = options.share ?? 0.5;
  const now = options.now ?? (() => performance.now());
  const wait = options.sleep ?? sleep;
  // A full window's share of credit at most: bulk work never runs more than that ahead.
  const maxCredit = windowMs * share;
  let credit = maxCredit;
  let creditAt = now();
  let lastRequestAt = Number.NEGATIVE_INFINITY;
  let waited = 0;
  /**
   * Resolves when the latest unit to ask has been let through. Units asked
   * for together (several jobs, several exports) would otherwise all pass
   * within one turn of the event loop, one after the other, before any
   * request could be read: the process looked quiet (no request noted for
   * a window) only because bulk work held it, and every unit was let
   * through with full credit.
   */
  let admissions: Promise<void> = Promise.resolve();

  const busy = () => now() - lastRequestAt < windowMs;
  const refill = () => {
    const at = now();
    credit = Math.min(maxCredit, credit + (at - creditAt) * share);
    creditAt = at;
  };

  return {
    noteRequest() {
      lastRequestAt = now();
    },
    async turn() {
      // One unit is let through at a time, each after an event loop turn of its own (see admissions).
      const previous = admissions;
      let admit = () => {};
      admissions = new Promise<void>((resolve) => {
        admit = resolve;
      });
      try {
        await previous;
        await nextTurn();
        refill();
        while (share < 1 && credit < 0 && busy()) {
          const started = now();
          await wait(Math.min(windowMs, -credit / share));
          waited += now() - started;
          refill();
        }
        if (!busy()) credit = maxCredit;
        creditAt = now();
      } finally {
        admit();
      }
    },
    spent(ms) {
      // The credit a unit earns while it runs is not capped: a long unit costs (1 - share) of its time.
      credit -= ms * (1 - share);
      creditAt = now();
    },
    waitedMs: () => waited,
  };
}
