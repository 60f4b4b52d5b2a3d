import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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
    redisAvailable?: () => boolean;
  },
) {
  const { pool, droppedLogLines, redisAvailable } = sources;
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
