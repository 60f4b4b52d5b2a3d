import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../core/errors.js';
import type { Db } from '../../../db/database.js';
import { claimImport, type ImportRow, type Lease, updateLeasedImport } from './member-import.repository.js';
import { type ImportRunSettings, runImport } from './member-import.service.js';
import { LeaseLost, Stopping } from './member-import-chunks.js';

export interface ImportWorkerSettings extends Omit<ImportRunSettings, 'stopping'> {
  /** IMPORT_CONCURRENCY: jobs this process runs at once. */
  concurrency: number;
  /** How often it looks for jobs queued by other processes, or left by a process that died. */
  pollIntervalMs: number;
  /** A job whose process stops renewing this long (a chunk renews it) may be taken by another. */
  leaseMs: number;
  /** A job taken this many times (its process died or failed each time) ends failed. */
  maxAttempts: number;
}

export interface ImportWorker {
  /** Starts it (once): in a serving process when it listens, in any process when it queues a job. */
  start(): void;
  /** A job was queued here: look for it now. */
  wake(): void;
  /** Resolves when a job of this process moves (progress, state), or after `ms`. */
  moved(importId: number, ms: number): Promise<void>;
  /** Stops taking jobs; the running ones stop before their next chunk and are left for another process. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs CSV import jobs in this process (member-import.worker.ts). */
    importWorker: ImportWorker;
  }
}

/**
 * How long a chunk's transaction may take rows: on SQLite it holds the
 * process (and the one writer), so 50 ms; on PostgreSQL the time is mostly
 * waiting on the database, whose locks it holds, so up to a second.
 */
export const IMPORT_CHUNK_MS = { sqlite: 50, postgres: 1000 } as const;
/** How often a process looks for jobs queued elsewhere or left by a process that died. */
export const IMPORT_POLL_INTERVAL_MS = 1000;
/** A job whose process has not committed a chunk for this long may be taken over. */
export const IMPORT_LEASE_MS = 60_000;
/** A job taken this many times without ending (each time its process died or failed) ends failed. */
export const IMPORT_MAX_ATTEMPTS = 5;

/** A failed attempt is tried again after this many seconds times its number. */
const RETRY_SECONDS = 5;

/**
 * Runs import jobs: it claims queued jobs (and jobs whose process died) up
 * to its concurrency, under a lease that each chunk renews, and runs them to
 * their end. An unexpected failure leaves the job to be tried again later;
 * after `maxAttempts` it ends failed, saying so.
 */
export function createImportWorker(
  db: Db,
  settings: ImportWorkerSettings,
  log: FastifyBaseLogger,
): ImportWorker {
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming: Promise<void> | undefined;
  const running = new Map<number, Promise<void>>();
  const waiters = new Map<number, Set<() => void>>();
  const runSettings: ImportRunSettings = { ...settings, stopping: () => stopping };

  const notify = (importId: number) => {
    for (const wake of waiters.get(importId) ?? []) wake();
    waiters.delete(importId);
  };

  const run = async (job: ImportRow) => {
    const token = job.lease_token as string;
    const lease = (): Lease => ({
      id: job.id,
      token,
      until: new Date(settings.clock().getTime() + settings.leaseMs).toISOString(),
    });
    try {
      if (job.attempts > settings.maxAttempts) {
        const error = new AppError(
          'internal_error',
          `The import stopped ${settings.maxAttempts} times before its end (its process ended or failed); it was not resumed again`,
        );
        await updateLeasedImport(db, lease(), failedNow(error, settings));
        return;
      }
      await runImport(db, job, runSettings, lease, () => notify(job.id));
    } catch (error) {
      if (error instanceof LeaseLost) return log.warn({ importId: job.id }, error.message);
      // Between two chunks: free at once for another process, and this stop does not count as an attempt.
      const stopped = error instanceof Stopping;
      if (!stopped)
        log.error({ err: error, importId: job.id }, 'member import failed; it will be tried again');
      const retryAt = stopped
        ? null
        : new Date(settings.clock().getTime() + RETRY_SECONDS * 1000 * job.attempts).toISOString();
      await updateLeasedImport(db, lease(), {
        locked_until: retryAt,
        ...(stopped ? { attempts: job.attempts - 1 } : {}),
      }).catch((releaseError) =>
        log.warn({ err: releaseError, importId: job.id }, 'member import: not released'),
      );
    }
  };

  // A call while a claim is under way asks for another round after it: a job that ended meanwhile made room.
  let claimAgain = false;
  const claimMore = (): Promise<void> => {
    claimAgain = true;
    if (stopping) return Promise.resolve();
    claiming ??= (async () => {
      while (claimAgain && !stopping) {
        claimAgain = false;
        await claimWhileRoom();
      }
    })().finally(() => {
      claiming = undefined;
    });
    return claiming;
  };

  const claimWhileRoom = async () => {
    try {
      while (!stopping && running.size < settings.concurrency) {
        const now = settings.clock();
        const job = await claimImport(db, now.toISOString(), {
          token: randomUUID(),
          until: new Date(now.getTime() + settings.leaseMs).toISOString(),
        });
        if (job === undefined) break;
        const done = run(job).finally(() => {
          running.delete(job.id);
          notify(job.id);
          void claimMore();
        });
        running.set(job.id, done);
      }
    } catch (error) {
      log.warn({ err: error }, 'member import: could not look for queued jobs');
    }
  };

  const poll = () => {
    timer = setTimeout(() => {
      void claimMore().finally(() => {
        if (!stopping) poll();
      });
    }, settings.pollIntervalMs).unref();
  };

  return {
    start() {
      if (started || stopping) return;
      started = true;
      void claimMore();
      poll();
    },
    wake() {
      this.start();
      void claimMore();
    },
    moved(importId, ms) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timeout);
          resolve();
        };
        const timeout = setTimeout(() => {
          waiters.get(importId)?.delete(done);
          resolve();
        }, ms);
        waiters.set(importId, (waiters.get(importId) ?? new Set()).add(done));
      });
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await claiming;
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}

function failedNow(error: AppError, settings: ImportWorkerSettings) {
  const at = settings.clock();
  return {
    state: 'failed' as const,
    error_code: error.code,
    error_message: error.message,
    finished_at: at.toISOString(),
    expires_at: new Date(at.getTime() + settings.retentionMs).toISOString(),
    locked_until: null,
    lease_token: null,
  };
}
