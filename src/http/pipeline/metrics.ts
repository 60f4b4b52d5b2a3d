import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { JobStats } from '../../jobs/job-runner.js';

/**
 * Prometheus metrics at /metrics: requests by route and status, their
 * latency, database pool usage, dropped log lines, whether the rate limit's
 * Redis answers, and the process metrics of prom-client.
 * Each app has its own registry, so several apps in one process (tests) do
 * not clash.
 */
export function registerMetrics(
  app: FastifyInstance,
  sources: {
    pool?: () => { total: number; idle: number; waiting: number };
    droppedLogLines?: () => number;
    /** This process's runs of the periodic jobs. */
    jobs?: () => JobStats[];
    redisAvailable?: () => boolean;
  },
) {
  const { pool, droppedLogLines, jobs, redisAvailable } = sources;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Its _count series counts the requests: a separate counter would double the work per request.
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status (_count: requests answered)',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { total, idle, waiting } = pool();
        this.set({ state: 'total' }, total);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }
  if (droppedLogLines) {
    new Counter({
      name: 'log_lines_dropped_total',
      help: 'Log lines dropped because the reader of stdout fell 8 MB behind',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    });
  }
  if (jobs) registerJobMetrics(registry, jobs);
  if (redisAvailable) {
    new Gauge({
      name: 'redis_up',
      help: 'Whether the rate limit reaches Redis (1) or counts in this process only (0)',
      registers: [registry],
      collect() {
        this.set(redisAvailable() ? 1 : 0);
      },
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched paths share one label, so random URLs cannot grow the series without bound.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
    };
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/** Per job, this process's runs: a job runs in one process at a time, so look at the sum over processes. */
function registerJobMetrics(registry: Registry, jobs: () => JobStats[]): void {
  new Counter({
    name: 'periodic_job_runs_total',
    help: 'Runs of each periodic job in this process, by outcome',
    labelNames: ['job', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const job of jobs()) {
        this.inc({ job: job.name, outcome: 'succeeded' }, job.runs - job.failures);
        this.inc({ job: job.name, outcome: 'failed' }, job.failures);
      }
    },
  });
  new Gauge({
    name: 'periodic_job_last_run_seconds',
    help: "Unix time at which this process's last run of each periodic job ended",
    labelNames: ['job'],
    registers: [registry],
    collect() {
      for (const job of jobs())
        if (job.lastRunAt !== undefined) this.set({ job: job.name }, job.lastRunAt / 1000);
    },
  });
  new Gauge({
    name: 'periodic_job_last_duration_seconds',
    help: "How long this process's last run of each periodic job took",
    labelNames: ['job'],
    registers: [registry],
    collect() {
      for (const job of jobs()) {
        if (job.lastDurationMs !== undefined) this.set({ job: job.name }, job.lastDurationMs / 1000);
      }
    },
  });
}
