import type { BulkGovernor } from '../../../jobs/bulk-governor.js';
import type { CsvRow } from './member-csv.reader.js';

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
