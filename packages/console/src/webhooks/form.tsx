import { type EventType, eventTypeValues, type WebhookEndpoint } from '@facility-admin/client';
import { useId, useState } from 'preact/hooks';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

/**
 * What each of the document's event types means. A Record keyed by the
 * client's `EventType`: a type the document adds fails the console's typecheck
 * until it is worded here.
 */
const EVENT_TYPE_WORDS: Record<EventType, string> = {
  'facility.created': 'a facility is created',
  'facility.updated': 'a facility is renamed, changed or archived',
  'plan.created': 'a plan is created',
  'plan.updated': 'a plan is changed or restored',
  'plan.deleted': 'a plan is archived or deleted',
  'plan.entitlements_changed': "a plan's entitlements change",
  'member.created': 'a member is added',
  'member.updated': 'a member is changed',
  'member.status_changed': "a member's status changes",
  'member.deleted': 'a member is removed',
  'member.freeze_created': 'a freeze is planned or opened',
  'member.freeze_updated': 'a freeze starts or ends',
  'member.freeze_cancelled': 'a freeze is cancelled',
  'policy.updated': 'the policy changes',
  'access.allowed': 'someone is let in at the door',
  'access.denied': 'someone is refused at the door',
  'check_in.checked_out': 'a member is checked out',
  'webhook_endpoint.disabled': 'the service disables a webhook endpoint',
};

export interface EndpointBody {
  url?: string;
  types?: EventType[];
  description?: string | null;
  enabled?: boolean;
}

interface Draft {
  url: string;
  types: EventType[];
  description: string;
  enabled: boolean;
}

function draftOf(endpoint?: WebhookEndpoint): Draft {
  return {
    url: endpoint?.url ?? '',
    types: endpoint?.types ?? [],
    description: endpoint?.description ?? '',
    enabled: endpoint?.enabled ?? true,
  };
}

/** What to send: every field on create; on edit only the fields changed. */
function bodyOf(draft: Draft, endpoint?: WebhookEndpoint): EndpointBody {
  const description = draft.description.trim() === '' ? null : draft.description.trim();
  const types = eventTypeValues.filter((t) => draft.types.includes(t));
  if (!endpoint) return { url: draft.url.trim(), types, description, enabled: draft.enabled };
  const body: EndpointBody = {};
  if (draft.url.trim() !== endpoint.url) body.url = draft.url.trim();
  if (types.join() !== eventTypeValues.filter((t) => endpoint.types.includes(t)).join()) body.types = types;
  if (description !== endpoint.description) body.description = description;
  if (draft.enabled !== endpoint.enabled) body.enabled = draft.enabled;
  return body;
}

interface Props {
  endpoint?: WebhookEndpoint;
  submitLabel: string;
  onSubmit: (body: EndpointBody) => Promise<void>;
  onCancel: () => void;
  /** After a 412: reload what the form edits. */
  onReload?: () => void;
}

/** Create and edit: the URL, the event types (none checked: every type), a description, enabled. */
export function EndpointForm({ endpoint, submitLabel, onSubmit, onCancel, onReload }: Props) {
  const [draft, setDraft] = useState(() => draftOf(endpoint));
  const save = useWrite();
  const typesId = useId();
  const errors = fieldErrors(save.failure);
  const toggle = (type: EventType, on: boolean) =>
    setDraft({ ...draft, types: on ? [...draft.types, type] : draft.types.filter((t) => t !== type) });
  return (
    <form class="form" onSubmit={save.submit(() => onSubmit(bodyOf(draft, endpoint)))} noValidate>
      <Field label="URL" error={errors.url} hint="The https address that receives the events.">
        {(props) => (
          <input
            {...props}
            type="url"
            name="url"
            autoComplete="off"
            required
            value={draft.url}
            onInput={(e) => setDraft({ ...draft, url: e.currentTarget.value })}
          />
        )}
      </Field>
      <fieldset
        class={`event-types${errors.types ? ' invalid' : ''}`}
        aria-describedby={`${typesId}-hint${errors.types ? ` ${typesId}-error` : ''}`}
      >
        <legend>Event types</legend>
        <p class="hint" id={`${typesId}-hint`}>
          None checked: every event type, including ones added later.
        </p>
        <ul>
          {eventTypeValues.map((type) => (
            <li key={type}>
              <label>
                <input
                  type="checkbox"
                  checked={draft.types.includes(type)}
                  onChange={(e) => toggle(type, e.currentTarget.checked)}
                />
                <span>
                  <code>{type}</code> <span class="muted small">{EVENT_TYPE_WORDS[type]}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {errors.types && (
          <p class="field-error" id={`${typesId}-error`}>
            {errors.types}
          </p>
        )}
      </fieldset>
      <Field label="Description" error={errors.description}>
        {(props) => (
          <textarea
            {...props}
            name="description"
            maxLength={500}
            value={draft.description}
            onInput={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          />
        )}
      </Field>
      <div>
        <label class="check">
          <input
            type="checkbox"
            name="enabled"
            checked={draft.enabled}
            aria-describedby={`${typesId}-enabled`}
            onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
          />
          <span>Enabled</span>
        </label>
        <p class="hint" id={`${typesId}-enabled`}>
          Events are delivered while the endpoint is enabled; while disabled they wait.
        </p>
      </div>
      {errors.enabled && <p class="field-error">{errors.enabled}</p>}
      <FormEnd write={save} submitLabel={submitLabel} onCancel={onCancel} onReload={onReload} />
    </form>
  );
}
