import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection moves the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 100;
/**
 * The serving connection checkpoints by itself only past this many WAL
 * pages (40 MB): a backstop, should the background thread stop.
 */
export const SERVING_CONNECTION_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * The background thread: its own connection runs a PASSIVE checkpoint every
 * CHECKPOINT_EVERY_MS. PASSIVE never waits for, nor blocks, the readers and
 * the writer of the serving connection. Plain JavaScript, as a worker thread
 * cannot load TypeScript under tsx on Node 20.
 */
const CHECKPOINT_LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('pragma wal_checkpoint(passive)');
const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch {
    // Busy or briefly unavailable: the next round tries again.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Checkpoints a SQLite database in WAL mode from a thread of its own. By
 * itself SQLite checkpoints inside the COMMIT that crosses 1,000 WAL pages:
 * copying those pages into a large database file took most of every
 * commit's time on the thread that serves requests
 * (docs/performance-log.md). Here the copy runs on
 * another core while the serving connection only appends to the WAL.
 */
export function startCheckpointer(path: string, onFailure: (error: Error) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINT_LOOP, {
    eval: true,
    workerData: { path, driver, everyMs: CHECKPOINT_EVERY_MS },
  });
  worker.unref();
  worker.on('error', onFailure);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Referenced again, so that the process waits for the thread to close its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
