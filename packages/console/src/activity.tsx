import {
  type AuditEventListQuery,
  auditEventActionValues,
  auditResourceTypeValues,
} from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { AuditList, useAuditEvents } from './audit';
import { ListState } from './resource';
import type { Route } from './router';
import { Field, ScreenTitle } from './ui';

const SHOWN_AT_ONCE = 100;

/** The facility's audit trail: every write, who made it and what changed, filterable. */
export function ActivityScreen(_props: { route: Route }) {
  const [type, setType] = useState('');
  const [action, setAction] = useState('');
  const [resourceId, setResourceId] = useState('');
  const [since, setSince] = useState('');
  const [shown, setShown] = useState(SHOWN_AT_ONCE);
  const filter: AuditEventListQuery = {};
  if (type) filter.resource_type = type as AuditEventListQuery['resource_type'];
  if (action) filter.action = action as AuditEventListQuery['action'];
  if (/^\d+$/.test(resourceId.trim())) filter.resource_id = resourceId.trim();
  // A day in the browser's zone, from its start.
  if (/^\d{4}-\d{2}-\d{2}$/.test(since)) filter.since = new Date(`${since}T00:00:00`).toISOString();
  const events = useAuditEvents(filter, [JSON.stringify(filter)]);
  const list = events.data ?? [];
  return (
    <section>
      <ScreenTitle>Activity</ScreenTitle>
      <p class="muted">Every write to this facility: who made it, when, and each field before and after.</p>
      <search class="filters" aria-label="Filter the activity">
        <Field label="Resource">
          {(props) => (
            <select {...props} value={type} onChange={(e) => setType(e.currentTarget.value)}>
              <option value="">Any</option>
              {auditResourceTypeValues.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Action">
          {(props) => (
            <select {...props} value={action} onChange={(e) => setAction(e.currentTarget.value)}>
              <option value="">Any</option>
              {auditEventActionValues.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Resource id">
          {(props) => (
            <input
              {...props}
              inputMode="numeric"
              value={resourceId}
              onInput={(e) => setResourceId(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Since">
          {(props) => (
            <input {...props} type="date" value={since} onInput={(e) => setSince(e.currentTarget.value)} />
          )}
        </Field>
      </search>
      <ListState load={events} what="the activity" count={events.data?.length} empty="No activity matches." />
      {list.length > 0 && <AuditList events={list.slice(0, shown)} showSubject />}
      {list.length > shown && (
        <button type="button" onClick={() => setShown(shown + SHOWN_AT_ONCE)}>
          Show older events
        </button>
      )}
    </section>
  );
}
