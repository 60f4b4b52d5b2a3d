import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { invalidField } from '../../core/errors.js';
import { longRequestSlots } from '../../http/pipeline/long-requests.js';
import { problemResponses } from '../../http/vocabulary/responses.js';
import { FacilityParams } from '../../http/vocabulary/schemas.js';
import { eventJson } from '../../journal/event-json.js';
import { eventTypes } from '../../journal/event-types.js';
import { EventFeedQuery, MAX_WAIT_SECONDS } from './event.schemas.js';
import { decodeFeedCursor, encodeFeedCursor, type FeedPage, readFeedPage } from './event.service.js';
import { watchFeed } from './feed-watcher.js';

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const watcher = watchFeed(app.db, app.config.eventsPollIntervalMs);
  // Before the server waits for open requests: long polls end (with what they have) at once. Waking
  // them is not enough: a woken read that finds nothing waits again, until its time is up.
  const closing = new AbortController();
  app.addHook('preClose', async () => {
    closing.abort();
    watcher.close();
  });
  const waiting = longRequestSlots({
    total: app.config.eventsMaxWaiters,
    perHolder: app.config.eventsMaxWaitersPerKey,
    maxConnections: app.config.maxConnections,
    stallTimeoutMs: app.config.stallTimeoutMs,
    what: 'reads of the feed',
  });

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
          'types. Events are kept `EVENTS_RETENTION_DAYS` (30 days by default). A read that would wait is ' +
          '429 `rate_limited` (with `Retry-After`, and the connection closed) when `EVENTS_MAX_WAITERS` reads ' +
          "of this process wait already (at most half of its connections), or the key's " +
          '`EVENTS_MAX_WAITERS_PER_KEY` (16). A key revoked while its read waits ends the wait with 401 ' +
          '`unauthenticated`, as its next request would be.',
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
      const filter = {
        facilityId: request.params.facility_id,
        after: decodeFeedCursor(after),
        types: types === undefined ? undefined : parseTypes(types),
        limit: limit ?? 100,
        maxBytes: app.pageMaxBytes,
      };
      let page: FeedPage;
      if (waitMs === 0) page = await readFeedPage(app.db, watcher, filter, 0);
      else {
        waiting.admit(request, reply, waitMs);
        // The wait ends early when the key is revoked (then 401 below), the client goes away or the service stops.
        const stop = new AbortController();
        const stopWatching = request.watchKeyRevocation(() => stop.abort());
        reply.raw.once('close', () => stop.abort());
        try {
          const signal = AbortSignal.any([stop.signal, closing.signal]);
          page = await readFeedPage(app.db, watcher, filter, waitMs, signal);
        } finally {
          stopWatching();
        }
        // Nothing written after a revocation reaches a read that waited with the revoked key.
        await request.verifyKeyAgain();
      }
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
