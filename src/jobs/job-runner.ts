import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import {
  claimDuePeriodicJob,
  insertPeriodicJobIfMissing,
  releasePeriodicJob,
} from './periodic-job.repository.js';

/** Background work that runs every `everyMs`, once across all workers and instances. */
export interface PeriodicJob {
  /** Unique; also the job's row in `periodic_jobs` and its label in /metrics. */
  name: string;
  everyMs: number;
  /**
   * Longest a run may take before another process may take the job over
   * (the holder is presumed dead). Defaults to five minutes.
   */
  leaseMs?: number;
  /** Does the work; what it returns is logged with the run (e.g. how many rows it removed). `now` is the app's clock. */
  run(db: Db, now: Clock): Promise<Record<string, unknown> | undefined>;
}

/** What this process has seen of a job: its own runs only. */
export interface JobStats {
  name: string;
  /** Whether its row in `periodic_jobs` is known to exist. */
  registered: boolean;
  runs: number;
  failures: number;
  /** Unix ms of this process's last run's end, undefined before its first. */
  lastRunAt: number | undefined;
  lastDurationMs: number | undefined;
}

export interface JobRunner {
  stop(): Promise<void>;
  stats(): JobStats[];
}

/** How a process waits to look again: Node's timers in the service, a test's own where a test drives time. */
export interface JobTimers {
  /** Calls `look` once, after `ms`; what it returns cancels that. */
  after(ms: number, look: () => void): () => void;
}

const nodeTimers: JobTimers = {
  after: (ms, look) => {
    const timer = setTimeout(look, ms).unref();
    return () => clearTimeout(timer);
  },
};

const DEFAULT_LEASE_MS = 5 * 60_000;
/** A process looks for a due run at least this often, so a job is late by at most this much. */
const LONGEST_WAIT_MS = 60_000;

/** A process's wait between two looks at a job: a random point from half to one and a half of this. */
const waitOf = (job: PeriodicJob) => Math.min(job.everyMs, LONGEST_WAIT_MS);

/**
 * The latest a run of the job starts after any moment, on one process or
 * many, while one of them serves: the job is due again `everyMs` after a
 * run started, and each process looks again at most one and a half waits
 * after its last look (or its last run's end). Runs taken as instant; a run
 * that takes time delays the next by as much, and a process that dies
 * during a run holds the job until its lease ends.
 */
export function latestRunAfterMs(job: PeriodicJob): number {
  return job.everyMs + 1.5 * waitOf(job);
}

/**
 * Starts every job. Each process wakes on its own timer, at a random point
 * of the wait so that instances started together do not all try at once,
 * and runs a job only when it takes the job's due run in the database. Due
 * times are the app's clock's.
 */
export function startJobs(
  db: Db,
  jobs: readonly PeriodicJob[],
  log: FastifyBaseLogger,
  now: Clock,
  timers: JobTimers = nodeTimers,
): JobRunner {
  let stopped = false;
  const waits = new Map<string, () => void>();
  const running = new Set<Promise<void>>();
  const stats = new Map<string, JobStats>(
    jobs.map((job) => [
      job.name,
      {
        name: job.name,
        registered: false,
        runs: 0,
        failures: 0,
        lastRunAt: undefined,
        lastDurationMs: undefined,
      },
    ]),
  );

  const schedule = (job: PeriodicJob) => {
    if (stopped) return;
    const wait = waitOf(job);
    waits.set(
      job.name,
      timers.after(wait / 2 + Math.random() * wait, () => tick(job)),
    );
  };

  const tick = (job: PeriodicJob) => {
    const run = tryRun(db, job, log, stats.get(job.name) as JobStats, now).finally(() => {
      running.delete(run);
      schedule(job);
    });
    running.add(run);
  };

  for (const job of jobs) tick(job);

  return {
    async stop() {
      stopped = true;
      for (const cancel of waits.values()) cancel();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    stats: () => [...stats.values()].map((entry) => ({ ...entry })),
  };
}

async function tryRun(
  db: Db,
  job: PeriodicJob,
  log: FastifyBaseLogger,
  stats: JobStats,
  now: Clock,
): Promise<void> {
  let started = now();
  let claimed: boolean;
  try {
    // Until the row exists (a database that was down at start), every tick tries to add it.
    if (!stats.registered) {
      await insertPeriodicJobIfMissing(db, job.name, started);
      stats.registered = true;
      // The first statement may have waited for a connection: the next run is due a period after the claim, not after that wait.
      started = now();
    }
    claimed = await claimDuePeriodicJob(db, {
      name: job.name,
      now: started,
      nextRunAt: new Date(started.getTime() + job.everyMs),
      leasedUntil: new Date(started.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS)),
    });
  } catch (error) {
    log.warn({ err: error, job: job.name }, 'periodic job: could not check whether it is due');
    return;
  }
  if (!claimed) return;
  let failure: unknown;
  let outcome: Record<string, unknown> | undefined;
  const startedAt = performance.now();
  try {
    outcome = await job.run(db, now);
  } catch (error) {
    failure = error;
  }
  const durationMs = Math.round(performance.now() - startedAt);
  const finished = now();
  stats.runs += 1;
  stats.lastRunAt = finished.getTime();
  stats.lastDurationMs = durationMs;
  if (failure === undefined) log.info({ job: job.name, durationMs, ...outcome }, 'periodic job ran');
  else {
    stats.failures += 1;
    log.error({ err: failure, job: job.name, durationMs }, 'periodic job failed');
  }
  const error = failure === undefined ? null : String((failure as Error)?.message ?? failure).slice(0, 1000);
  await releasePeriodicJob(db, { name: job.name, finishedAt: finished, error }).catch((releaseError) =>
    log.warn({ err: releaseError, job: job.name }, 'periodic job: could not release its lease'),
  );
}
