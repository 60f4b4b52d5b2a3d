import type { BulkGovernor } from '../../../jobs/bulk-governor.js';
import type { CsvRow } from './member-csv.reader.js';
import type { FileKeys } from './member-import-file-keys.js';
import { RowNeedsIsolation } from './member-import-row.service.js';

/** How an import cuts its rows into transactions. */
export interface ChunkSettings {
  /** A chunk takes no more rows once it has run this long: the time a transaction holds the database. */
  chunkMs: number;
  /** The most rows one chunk takes (and reads ahead of it). */
  chunkMaxRows: number;
  /** Shares the process with ordinary requests: each chunk is a unit of bulk work. */
  governor: BulkGovernor;
  /** The app's clock: each chunk writes at its own time (a long import may cross midnight). */
  clock: () => Date;
  /** True once the process is stopping: the job stops before its next chunk, for another process to resume. */
  stopping(): boolean;
}

/**
 * The rows of a file, read ahead of the transaction that imports them: a
 * chunk's transaction never waits on the reading of the file (on SQLite the
 * one connection is the transaction's, and the file is read from the
 * database).
 */
export class RowQueue {
  readonly #rows: AsyncIterator<CsvRow>;
  #queued: CsvRow[] = [];
  #ended = false;

  constructor(rows: AsyncIterable<CsvRow>) {
    this.#rows = rows[Symbol.asyncIterator]();
  }

  /** Reads rows until `count` are queued or the file ends. */
  async fill(count: number): Promise<void> {
    while (!this.#ended && this.#queued.length < count) {
      const next = await this.#rows.next();
      if (next.done) this.#ended = true;
      else this.#queued.push(next.value);
    }
  }

  take(): CsvRow | undefined {
    return this.#queued.shift();
  }

  get empty(): boolean {
    return this.#queued.length === 0;
  }

  /** Reads and drops the first `count` rows, handing each to `seen` (a resumed job's rows already done). */
  async skip(count: number, seen: (row: CsvRow) => void): Promise<void> {
    for (let skipped = 0; skipped < count; skipped++) {
      const next = await this.#rows.next();
      if (next.done) return;
      seen(next.value);
    }
  }
}

/**
 * Runs the rows in chunks, each a unit of bulk work: `runChunk` takes rows
 * with `next()` until it answers undefined (the queue is empty, or the chunk
 * has run `chunkMs`, or taken `chunkMaxRows`). Between chunks the event loop
 * turns, and the governor may hold the next chunk back.
 */
export async function forEachChunk(
  rows: RowQueue,
  settings: ChunkSettings,
  runChunk: (next: () => CsvRow | undefined) => Promise<void>,
): Promise<void> {
  for (;;) {
    await settings.governor.turn();
    if (settings.stopping()) throw new Stopping();
    const started = performance.now();
    await rows.fill(settings.chunkMaxRows);
    if (rows.empty) return;
    const deadline = started + settings.chunkMs;
    let taken = 0;
    await runChunk(() => {
      if (taken >= settings.chunkMaxRows || (taken > 0 && performance.now() >= deadline)) return undefined;
      taken += 1;
      return rows.take();
    });
    settings.governor.spent(performance.now() - started);
  }
}

/** The job's lease was taken over by another process (this one had stalled past it): this run stops. */
export class LeaseLost extends Error {
  constructor(importId: number) {
    super(`import ${importId}: another process took the job over`);
  }
}

/** The process is stopping: the job is left, between two chunks, to be resumed. */
export class Stopping extends Error {
  constructor() {
    super('the process is stopping');
  }
}

/** Whether a pass's next chunk runs its rows in savepoints from the start: after a chunk that had to. */
export interface Isolation {
  next: boolean;
}

/**
 * Runs a chunk's rows in one attempt without a savepoint a row (two
 * statements fewer each, most of a row's round trips on PostgreSQL); when a
 * row's write fails, that attempt is thrown away with its transaction and
 * the same rows, then the rest of the chunk, run again, each in a savepoint,
 * the file's keys seen in the lost attempt forgotten. The next chunk then
 * starts in savepoints, the one after it without.
 */
export async function inRowAttempts(
  next: () => CsvRow | undefined,
  keys: FileKeys,
  isolation: Isolation,
  attempt: (take: () => CsvRow | undefined, isolated: boolean) => Promise<void>,
): Promise<void> {
  const taken: CsvRow[] = [];
  keys.mark();
  if (!isolation.next) {
    try {
      await attempt(() => {
        const row = next();
        if (row !== undefined) taken.push(row);
        return row;
      }, false);
      return;
    } catch (error) {
      if (!(error instanceof RowNeedsIsolation)) throw error;
      keys.rewind();
    }
  }
  isolation.next = taken.length > 0;
  let replayed = 0;
  await attempt(() => (replayed < taken.length ? taken[replayed++] : next()), true);
}
