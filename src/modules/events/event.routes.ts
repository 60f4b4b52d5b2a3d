import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { AppError, invalidField } from '../../core/errors.js';
import { problemResponses } from '../../http/responses.js';
import { FacilityParams } from '../../http/schemas.js';
import { eventJson } from '../../journal/event-json.js';
import { eventTypes } from '../../journal/event-types.js';
import { EventFeedQuery, MAX_WAIT_SECONDS } from './event.schemas.js';
import { decodeFeedCursor, encodeFeedCursor, readFeedPage } from './event.service.js';
import { watchFeed } from './feed-watcher.js';

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const watcher = watchFeed(app.db, app.config.eventsPollIntervalMs);
  // Before the server waits for open requests: long polls end (with what they have) at once.
  app.addHook('preClose', async () => watcher.close());

  app.get(
    '/admin/facilities/:facility_id/events',
    {
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'Follow the change feed of a facility',
        description:
          'Events in commit order after the cursor `after`: one per committed change of a plan, its ' +
          'entitlements, a member or the policy, written in the same transaction as the change (a write that ' +
          'rolls back has none). Pass `next_cursor` as `after` to read on; a cursor never skips an event, ' +
          'even one whose transaction commits after later ones. With `wait` (seconds, up to ' +
          `${MAX_WAIT_SECONDS}), an empty read waits until an event arrives. \`types\` keeps only the listed ` +
          'types. Events are kept `EVENTS_RETENTION_DAYS` (30 days by default). 429 `rate_limited` when too ' +
          'many reads of this process wait already.',
        params: FacilityParams,
        querystring: EventFeedQuery,
        response: {
          200: { $ref: 'EventPage', description: 'The events after the cursor, possibly none' },
          ...problemResponses(),
        },
      },
    },
    async (request, reply) => {
      const { after, types, limit, wait } = request.query;
      const waitMs = (wait ?? 0) * 1000;
      const watcherFull =
        waitMs > 0 && (app.config.eventsMaxWaiters === 0 || watcher.waiting() >= app.config.eventsMaxWaiters);
      if (watcherFull) {
        throw new AppError(
          'rate_limited',
          'Too many reads of the feed are waiting; retry without wait or later',
          {
            headers: { 'retry-after': '1' },
          },
        );
      }
      if (waitMs > 0) holdConnectionOpen(request.raw.socket, reply.raw, app.config.stallTimeoutMs, waitMs);
      const page = await readFeedPage(
        app.db,
        watcher,
        {
          facilityId: request.params.facility_id,
          after: decodeFeedCursor(after),
          types: types === undefined ? undefined : parseTypes(types),
          limit: limit ?? 100,
          maxBytes: app.pageMaxBytes,
        },
        waitMs,
      );
      reply.type('application/json; charset=utf-8');
      // Sent as built: each event's data is the JSON text stored with it, never parsed again.
      return (reply as unknown as FastifyReply).send(
        `{"events":[${page.events.map(eventJson).join(',')}],"next_cursor":"${encodeFeedCursor(page.next)}"}`,
      );
    },
  );
};

function parseTypes(text: string): string[] {
  const types = text.split(',').map((type) => type.trim());
  const known = eventTypes();
  const unknown = types.filter((type) => !known.includes(type));
  if (unknown.length > 0) {
    throw invalidField(
      'query',
      'types',
      `unknown event type ${unknown.map((t) => `"${t}"`).join(', ')}; known: ${known.join(', ')}`,
    );
  }
  return types;
}

/**
 * A long poll moves no bytes while it waits: the connection's stall timeout
 * (STALL_TIMEOUT_MS) is lengthened by the wait for this request, and set back
 * when its answer is written.
 */
function holdConnectionOpen(
  socket: Socket | null,
  response: ServerResponse,
  stallMs: number,
  waitMs: number,
): void {
  if (typeof socket?.setTimeout !== 'function') return; // app.inject's stand-in has none
  socket.setTimeout(stallMs + waitMs);
  response.once('finish', () => socket.setTimeout(stallMs));
}
