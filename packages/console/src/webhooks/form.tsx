import type { EventType, WebhookEndpoint } from '@facility-admin/client';
import { useId, useRef, useState } from 'preact/hooks';
import { Field, fieldErrors, ProblemNotice } from '../ui';

/**
 * The document's event types, each with what it means. A Record keyed by the
 * client's `EventType`: a type the document adds fails the console's typecheck
 * until it is listed here.
 */
const EVENT_TYPE_WORDS: Record<EventType, string> = {
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
  'webhook_endpoint.disabled': 'the service disables a webhook endpoint',
};
export const EVENT_TYPES = Object.keys(EVENT_TYPE_WORDS) as EventType[];

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
  const types = EVENT_TYPES.filter((t) => draft.types.includes(t));
  if (!endpoint) return { url: draft.url.trim(), types, description, enabled: draft.enabled };
  const body: EndpointBody = {};
  if (draft.url.trim() !== endpoint.url) body.url = draft.url.trim();
  if (types.join() !== EVENT_TYPES.filter((t) => endpoint.types.includes(t)).join()) body.types = types;
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
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // A ref, not only state: a double click submits before the re-render disables the button.
  const inFlight = useRef(false);
  const typesId = useId();
  const errors = fieldErrors(error);
  const toggle = (type: EventType, on: boolean) =>
    setDraft({ ...draft, types: on ? [...draft.types, type] : draft.types.filter((t) => t !== type) });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(bodyOf(draft, endpoint));
    } catch (caught) {
      setError(caught);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return (
    <form class="form" onSubmit={submit} noValidate>
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
          {EVENT_TYPES.map((type) => (
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
      {error !== undefined && <ProblemNotice error={error} onReload={onReload} />}
      <div class="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
