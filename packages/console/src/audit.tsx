import type { AuditEvent, AuditEventListQuery } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from './context';
import { formatTimestamp, isTimestamp } from './format';
import { href } from './router';
import { Empty, Loading, ProblemNotice, useLoad } from './ui';

const ACTION_WORDS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  restore: 'restored',
  hard_delete: 'purged',
};

function shown(value: unknown, timeZone: string): string {
  if (value === null || value === undefined) return '—';
  if (isTimestamp(value)) return formatTimestamp(value, timeZone);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function subject(event: AuditEvent, facilityId: number) {
  const id = event.resource_id;
  if (event.resource_type === 'member') return <a href={href(facilityId, 'members', id)}>member {id}</a>;
  if (event.resource_type === 'plan') return <a href={href(facilityId, 'plans', id)}>plan {id}</a>;
  if (event.resource_type === 'entitlements')
    return <a href={href(facilityId, 'plans', id)}>entitlements of plan {id}</a>;
  if (event.resource_type === 'policy') return <a href={href(facilityId, 'policy')}>policy</a>;
  // No screen of their own: an API key is managed with the command line.
  return (
    <span>
      {event.resource_type.replace('_', ' ')} {id}
    </span>
  );
}

/** Events newest first, each with who, when (in the facility's timezone) and every field before → after. */
export function AuditList({ events, showSubject }: { events: AuditEvent[]; showSubject: boolean }) {
  const { facilityId, timeZone } = useFacility();
  return (
    <ol class="timeline">
      {events.map((event) => (
        <li key={event.id}>
          <p>
            <time dateTime={event.occurred_at}>{formatTimestamp(event.occurred_at, timeZone)}</time>{' '}
            <strong>{event.api_key_name}</strong> {ACTION_WORDS[event.action] ?? event.action}{' '}
            {showSubject ? subject(event, facilityId) : null}
          </p>
          {Object.keys(event.changes).length > 0 && (
            <ul class="changes">
              {Object.entries(event.changes).map(([field, change]) => (
                <li key={field}>
                  <code>{field}</code>:{' '}
                  {event.action === 'create' ? (
                    shown(change.after, timeZone)
                  ) : (
                    <>
                      <del>{shown(change.before, timeZone)}</del> → <ins>{shown(change.after, timeZone)}</ins>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * The audit trail, filtered, newest first: the service lists by id ascending, so
 * the pages are read to the end (bounded) and reversed.
 */
export function useAuditEvents(filter: AuditEventListQuery, deps: unknown[]) {
  const { client, facilityId } = useFacility();
  return useLoad(async () => {
    const events: AuditEvent[] = [];
    let cursor: string | undefined;
    // At most 10 pages of 500: a long history shows its newest 5000 events.
    for (let page = 0; page < 10; page++) {
      const answer = await client.auditEvents.list(facilityId, { ...filter, limit: 500, cursor });
      events.push(...answer.audit_events);
      if (!answer.next_cursor) break;
      cursor = answer.next_cursor;
    }
    return events.reverse();
  }, [facilityId, ...deps]);
}

/** One resource's history (a member's, a plan's). */
export function AuditTimeline({
  resourceType,
  resourceId,
}: {
  resourceType: 'member' | 'plan';
  resourceId: string;
}) {
  // A plan's history holds its entitlements' too (they are recorded under the plan's id).
  const types = resourceType === 'plan' ? ['plan', 'entitlements'] : [resourceType];
  const filter: AuditEventListQuery =
    resourceType === 'plan'
      ? { resource_id: resourceId }
      : { resource_type: resourceType, resource_id: resourceId };
  const events = useAuditEvents(filter, [resourceType, resourceId]);
  const [all, setAll] = useState(false);
  if (events.state === 'loading' && !events.data) return <Loading what="the history" />;
  if (events.state === 'error') return <ProblemNotice error={events.error} />;
  const list = (events.data ?? []).filter((event) => types.includes(event.resource_type));
  if (list.length === 0) return <Empty>No recorded changes.</Empty>;
  return (
    <>
      <AuditList events={all ? list : list.slice(0, 20)} showSubject={resourceType === 'plan'} />
      {!all && list.length > 20 && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {list.length} events
        </button>
      )}
    </>
  );
}
