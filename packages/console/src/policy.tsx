import type { Policy, PolicyUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from './context';
import { formatTimestamp, moneyInput, parseMoney } from './format';
import { POLICY_FIELDS as FIELDS } from './policy-fields';
import type { Route } from './router';
import { Field, fieldErrors, Loading, ProblemNotice, ScreenTitle, useLoad } from './ui';

type Draft = Record<string, string | boolean>;

function draftOf(policy: Policy): Draft {
  const draft: Draft = {};
  for (const f of FIELDS) {
    const value = policy[f.name as keyof Policy];
    draft[f.name] =
      f.kind === 'boolean'
        ? Boolean(value)
        : f.kind === 'money'
          ? moneyInput(value as number, policy.currency)
          : String(value);
  }
  return draft;
}

/** The facility policy as one form; only changed fields are sent, with If-Match. */
export function PolicyScreen(_props: { route: Route }) {
  const { client, facilityId, canWrite, timeZone, reloadPolicy } = useFacility();
  const loaded = useLoad(() => client.policy.get(facilityId), [facilityId]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  if (loaded.state === 'loading' && !loaded.data) return <Loading what="the policy" />;
  if (loaded.state === 'error' && !loaded.data) return <ProblemNotice error={loaded.error} />;
  const { data: policy, etag } = loaded.data as { data: Policy; etag: string };
  const current = draft ?? draftOf(policy);
  const original = draftOf(policy);
  const errors = fieldErrors(error);
  const local: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const value = current[f.name];
    if (value === original[f.name]) continue;
    if (f.kind === 'boolean') body[f.name] = value;
    else if (f.kind === 'integer') {
      if (/^\d+$/.test(String(value).trim())) body[f.name] = Number(value);
      else local[f.name] = 'Enter a whole number';
    } else if (f.kind === 'money') {
      const minor = parseMoney(String(value), String(current.currency));
      if (minor === undefined) local[f.name] = `Enter an amount in ${current.currency}, like 12.50`;
      else body[f.name] = minor;
    } else body[f.name] = String(value).trim();
  }
  const reload = () => {
    setDraft(null);
    setError(undefined);
    loaded.reload();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (Object.keys(local).length > 0) return;
    setError(undefined);
    try {
      await client.policy.update(facilityId, body as PolicyUpdate, { ifMatch: etag });
      setDraft(null);
      setSaved(true);
      loaded.reload();
      reloadPolicy();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section>
      <ScreenTitle>Policy</ScreenTitle>
      <p class="muted">
        The rules of facility {facilityId}. Last changed {formatTimestamp(policy.updated_at, timeZone)}.
      </p>
      <form class="form" onSubmit={submit} noValidate>
        <fieldset disabled={!canWrite} class="policy-grid">
          <legend class="visually-hidden">Policy fields</legend>
          {FIELDS.map((f) => (
            <Field
              key={f.name}
              label={f.kind === 'money' ? `${f.label} (${current.currency})` : f.label}
              error={local[f.name] ?? errors[f.name]}
              hint={`${f.description} ${f.enforced ? 'Enforced by this service.' : 'Stored for other systems; not enforced here.'}`}
            >
              {(props) =>
                f.kind === 'boolean' ? (
                  <select
                    {...props}
                    value={current[f.name] ? 'yes' : 'no'}
                    onChange={(e) => setDraft({ ...current, [f.name]: e.currentTarget.value === 'yes' })}
                  >
                    <option value="yes">Yes</option>
                    <option value="no">No</option>
                  </select>
                ) : (
                  <input
                    {...props}
                    name={f.name}
                    inputMode={f.kind === 'text' ? undefined : f.kind === 'money' ? 'decimal' : 'numeric'}
                    value={String(current[f.name])}
                    onInput={(e) => {
                      setSaved(false);
                      setDraft({ ...current, [f.name]: e.currentTarget.value });
                    }}
                  />
                )
              }
            </Field>
          ))}
        </fieldset>
        {error !== undefined && <ProblemNotice error={error} onReload={reload} />}
        {saved && !draft && (
          <p class="notice ok" role="status">
            Policy saved.
          </p>
        )}
        {canWrite && (
          <div class="actions">
            <button type="button" disabled={!draft} onClick={reload}>
              Discard changes
            </button>
            <button type="submit" class="primary" disabled={Object.keys(body).length === 0}>
              Save policy
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
