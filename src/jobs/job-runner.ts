import type { FastifyBaseLogger } from 'fastify';
import { type Clock, systemClock } from '../core/clock.js';
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
  /**
   * Does the work; what it returns is logged with the run (e.g. how many rows it removed).
   * `now` is the app's clock, for the work's own dates (its schedule runs on real time).
   */
  run(db: Db, now?: Clock): Promise<Record<string, unknown> | undefined>;
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

const DEFAULT_LEASE_MS = 5 * 60_000;
/** A process looks for a due run at least this often, so a job is late by at most this much. */
const LONGEST_WAIT_MS = 60_000;

/**
 * Starts every job. Each process wakes on its own timer, at a random point
 * of the wait so that instances started together do not all try at once,
 * and runs a job only when it takes the job's due run in the database.
 */
export function startJobs(
  db: Db,
  jobs: readonly PeriodicJob[],
  log: FastifyBaseLogger,
  now: Clock = systemClock,
): JobRunner {
  let stopped = false;
  const timers = new Map<string, NodeJS.Timeout>();
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
    const wait = Math.min(job.everyMs, LONGEST_WAIT_MS);
    timers.set(job.name, setTimeout(() => tick(job), wait / 2 + Math.random() * wait).unref());
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
      for (const timer of timers.values()) clearTimeout(timer);
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
  let started = new Date();
  let claimed: boolean;
  try {
    // Until the row exists (a database that was down at start), every tick tries to add it.
    if (!stats.registered) {
      await insertPeriodicJobIfMissing(db, job.name, started);
      stats.registered = true;
      // The first statement may have waited for a connection: the next run is due a period after the claim, not after that wait.
      started = new Date();
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
  try {
    outcome = await job.run(db, now);
  } catch (error) {
    failure = error;
  }
  const finished = new Date();
  const durationMs = finished.getTime() - started.getTime();
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
