import DataLoader from 'dataloader';
import { type Compilable, type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { compileOnce } from '../engine/compile-once.js';
import type { Db, Executor } from '../engine/executor.js';

/** Keys in one query at most; more go in the next. */
const MAX_KEYS_PER_QUERY = 100;
/**
 * `stalledAfterMs`: a batch query that has run this long (behind a lock, on a
 * lost connection) no longer holds the next batch back. It is far above what
 * a batch of point reads takes, so only a batch that is held up reaches it.
 * A setting rather than a constant so that a test can hold batches back for
 * as long as it needs (test/batched-reads.test.ts); each database's reads take
 * the value it has when their first batch is made.
 */
export const batchReadSettings = { stalledAfterMs: 100 };

type Keys = { keys: number[] };

/**
 * Reads of one row by a unique integer key (an id, a facility's policy) that
 * arrive in the same turn of the event loop go to PostgreSQL as one query
 * (`where id = any($1)`), as Prisma does with findUnique. A round trip, not
 * the index lookup, is what a point read costs the database, the pool and
 * the driver; under concurrent requests each read now pays a share of one.
 *
 * Nothing is cached: each read sees what was committed when its query ran,
 * which is after its request arrived, so a client still reads its own
 * writes. One batch query of a kind runs at a time (oneBatchAtATime): the
 * reads asked for while it runs gather in the next batch, which goes at the
 * end of the turn in which the running one ends. When none runs, a batch
 * goes at the end of the turn in which its first read is asked for
 * (setImmediate), so a read waits for no timer. Batches therefore grow with
 * the load, not with how busy this process happens to be: batches cut at
 * every turn shrank when several processes shared the reads, and the
 * server's CPU per read rose with them (docs/performance-log.md). A failed query
 * fails every read of its batch with the same error (503 when the database
 * cannot be reached).
 *
 * `build` selects the rows whose key is `= anyKey` (`any($1)`: the batch's
 * keys); `keyOf` reads the key of a row. A batch spans facilities, so a read
 * is answered with its row only when the row is of the read's facility.
 * `onPool` runs the query outside any transaction.
 */
export function batchReads<R extends { facility_id: number }>(
  build: (db: Db, anyKey: RawBuilder<number>) => Compilable<R>,
  keyOf: (row: R) => number,
  onPool: (query: CompiledQuery<R>) => Promise<R[]>,
): (db: Executor, facilityId: number, key: number) => Promise<R | undefined> {
  const compiled = compileOnce<Keys, R>((db, param) => build(db, sql<number>`any(${param('keys')})`));
  const selectByKeys = (db: Executor, keys: Keys) => onPool(compiled(db, keys));
  const loaders = new WeakMap<Executor, DataLoader<number, R | undefined>>();
  const loaderFor = (db: Executor) => {
    let loader = loaders.get(db);
    if (loader === undefined) {
      const batches = oneBatchAtATime();
      loader = new DataLoader(
        async (keys) => {
          const rows = await batches.run(() => selectByKeys(db, { keys: [...keys] }));
          const byKey = new Map(rows.map((row) => [keyOf(row), row]));
          const handedOut = new Set<number>();
          // Each read owns its row, also when two reads of a batch ask for the same key.
          return keys.map((key) => {
            const row = byKey.get(key);
            if (row === undefined || !handedOut.has(key)) {
              handedOut.add(key);
              return row;
            }
            return { ...row };
          });
        },
        {
          cache: false,
          batchScheduleFn: batches.schedule,
          maxBatchSize: MAX_KEYS_PER_QUERY,
        },
      );
      loaders.set(db, loader);
    }
    return loader;
  };
  return async (db, facilityId, key) => {
    const row = await loaderFor(db).load(key);
    return row?.facility_id === facilityId ? row : undefined;
  };
}

/**
 * Schedules a loader's batches so that one query runs at a time. DataLoader
 * adds reads to a batch until it is dispatched, so a batch that waits here
 * gathers every read asked for meanwhile (up to MAX_KEYS_PER_QUERY; a full
 * batch waits behind it). When the running query ends, the next batch goes at
 * the end of that turn. Once the latest query has run STALLED_AFTER_MS, the
 * next batch goes beside it, so that a stuck query does not hold every read
 * of its kind in this process.
 */
function oneBatchAtATime() {
  const { stalledAfterMs } = batchReadSettings;
  let running = 0;
  let lastStarted = 0;
  const waiting: (() => void)[] = [];
  const start = (dispatch: () => void) => {
    running++;
    lastStarted = performance.now();
    stalled.refresh();
    setImmediate(dispatch);
  };
  const stalled = setTimeout(() => {
    const next = waiting.shift();
    if (next !== undefined) start(next);
  }, stalledAfterMs).unref();
  return {
    schedule(dispatch: () => void): void {
      if (running === 0 || performance.now() - lastStarted >= stalledAfterMs) start(dispatch);
      else waiting.push(dispatch);
    },
    async run<T>(query: () => Promise<T>): Promise<T> {
      try {
        return await query();
      } finally {
        running--;
        const next = waiting.shift();
        if (next !== undefined) start(next);
      }
    },
  };
}
