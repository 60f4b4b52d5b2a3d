import type { AuditEvent, AuditEventListQuery } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from './context';
import { formatTimestamp, isTimestamp } from './format';
import { ListState, readAll, useLoad } from './resource';
import { href } from './router';

const ACTION_WORDS: Record<AuditEvent['action'], string> = {
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
  if (event.resource_type === 'facility') return <a href={`#/facilities/${id}`}>the facility</a>;
  // Named, not linked: a freeze has no page of its own (its member's shows it), an API key has
  // none, and a staff user's and a webhook endpoint's pages open for owners only.
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
            <strong>{event.actor.name}</strong> {ACTION_WORDS[event.action] ?? event.action}{' '}
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
 * The audit trail, filtered, newest first: the service lists by id ascending,
 * so the pages are read to the end and reversed. At most 5000 events are read:
 * a longer history shows its oldest 5000 (the service has no order that starts
 * from the newest).
 */
export function useAuditEvents(filter: AuditEventListQuery, deps: unknown[]) {
  const { client, facilityId } = useFacility();
  return useLoad(async () => {
    const pages = client.paginate((cursor) =>
      client.auditEvents.list(facilityId, { ...filter, limit: 500, cursor }),
    );
    return (await readAll(pages, 5000)).reverse();
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
  const list = (events.data ?? []).filter((event) => types.includes(event.resource_type));
  if (events.state === 'error' || events.data === undefined || list.length === 0) {
    return <ListState load={events} what="the history" count={list.length} empty="No recorded changes." />;
  }
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
