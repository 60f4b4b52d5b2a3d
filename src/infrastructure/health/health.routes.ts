import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { AppError } from '../../core/errors.js';
import { isMigrated } from '../../db/migrate.js';
import { problemRef, problemResponsesBeforeRouting } from '../../http/vocabulary/responses.js';

const Health = Type.Object(
  { status: Type.Literal('ok') },
  {
    description: 'The process is alive',
    examples: [{ status: 'ok' }],
  },
);
const Readiness = Type.Object(
  {
    status: Type.Literal('ok'),
    database: Type.Literal('ok'),
    migrations: Type.Literal('ok'),
    redis: Type.Optional(
      Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], {
        description:
          'Only with REDIS_URL set and the rate limit on. `unavailable`: Redis does not answer, and the rate limit counts in each process ' +
          'until it does. The service is still ready: it serves without Redis.',
      }),
    ),
  },
  { description: 'Ready to serve', examples: [{ status: 'ok', database: 'ok', migrations: 'ok' }] },
);

export interface HealthOptions {
  /** Whether the rate limit's Redis answers; absent without REDIS_URL. */
  redisAvailable?: () => boolean;
}

/** Liveness and readiness for load balancers and orchestrators; open without a key. */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { redisAvailable }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'The process is alive',
        description:
          'Answers 200 while the process runs, without touching the database: for a liveness probe. ' +
          'Needs no API key and is not rate-limited.',
        security: [],
        response: { 200: Health, ...problemResponsesBeforeRouting() },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'The database is reachable and migrated',
        description:
          'Answers 200 when the database answers and every migration is applied, else 503 ' +
          '`service_unavailable` with Retry-After: for a readiness probe or a load balancer. Needs no API ' +
          'key and is not rate-limited.',
        security: [],
        response: {
          200: Readiness,
          ...problemResponsesBeforeRouting(),
          503: {
            description: 'service_unavailable: the database is unreachable or migrations are pending',
            content: { 'application/problem+json': { schema: problemRef('503') } },
          },
        },
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(app.db);
      } catch {
        throw new AppError('service_unavailable', 'The database is not reachable', {
          headers: { 'retry-after': '1' },
        });
      }
      if (!(await isMigrated(app.db))) {
        throw new AppError('service_unavailable', 'Database migrations are pending', {
          headers: { 'retry-after': '5' },
        });
      }
      const ready = { status: 'ok' as const, database: 'ok' as const, migrations: 'ok' as const };
      if (redisAvailable === undefined) return ready;
      return { ...ready, redis: redisAvailable() ? ('ok' as const) : ('unavailable' as const) };
    },
  );
};
