import { Type } from 'typebox';
import { NullableRef } from '../../http/vocabulary/people-schemas.js';
import { Id, StringEnum, Timestamp } from '../../http/vocabulary/schemas.js';
import { eventExamples, eventTypes } from '../../journal/event-types.js';

/**
 * The feed's schemas, with every event type and an example of each: made
 * once every module has defined its events (src/modules.ts calls this when
 * it lists the named schemas); other schemas refer to them by `$id`.
 */
export function eventSchemas() {
  const examples = eventExamples();
  const event = (id: number, type: string) => ({
    id,
    type,
    facility_id: 1,
    occurred_at: '2026-03-09T16:42:07.905Z',
    actor: { type: 'api_key', id: 3, name: 'front desk' },
    data: examples[type],
  });
  const EventTypeName = StringEnum(eventTypes(), {
    $id: 'EventType',
    description: 'What changed: the resource and what happened to it',
    examples: ['member.status_changed'],
  });
  const Event = Type.Object(
    {
      id: Id,
      type: Type.Unsafe<string>({ $ref: 'EventType' }),
      facility_id: Id,
      occurred_at: Timestamp,
      actor: NullableRef('Actor', {
        description: 'Who made the change; null for events from before actors were recorded',
      }),
      data: Type.Record(Type.String(), Type.Unknown(), {
        description:
          'The resource after the change, as its GET answers it (a member without `allowed_transitions`). ' +
          '`*.deleted` adds `hard_deleted` (a hard delete carries the resource as it last was); ' +
          '`member.status_changed` adds `previous_status`; `plan.entitlements_changed` is ' +
          '`{plan_id, entitlements}` with the whole set after the change.',
      }),
    },
    {
      $id: 'Event',
      additionalProperties: false,
      description: 'One committed change: in the feed and, signed, in a webhook delivery',
      examples: eventTypes().map((type, index) => event(501 + index, type)),
    },
  );
  const EventPage = Type.Object(
    {
      events: Type.Array(Type.Unsafe({ $ref: 'Event' })),
      next_cursor: Type.String({
        description:
          'Pass as `after` to read on. Always present: with no events it is the cursor the read started from ' +
          '(or the start of the feed).',
      }),
    },
    {
      $id: 'EventPage',
      additionalProperties: false,
      description: 'Events in commit order, after the cursor',
      examples: [{ events: [event(507, 'member.status_changed')], next_cursor: 'ZXY6MDo1MDc' }],
    },
  );
  return [EventTypeName, Event, EventPage];
}

export const MAX_WAIT_SECONDS = 30;

export const EventFeedQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^ZXY6[A-Za-z0-9_-]+$',
        'x-pattern-message': 'is not a cursor this service issued',
        description: '`next_cursor` of the previous read; without it the feed starts at its oldest event',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Only these event types (`EventType`), comma-separated',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Most events in the page' }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        default: 0,
        description: 'Seconds to wait for an event when there is none yet (long poll)',
      }),
    ),
  },
  { additionalProperties: false },
);
