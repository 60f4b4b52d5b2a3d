import type { Policy, PolicyUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from './context';
import { formatTimestamp, moneyInput, parseMoney } from './format';
import { POLICY_FIELDS as FIELDS } from './policy-fields';
import { NotLoaded, useResource } from './resource';
import type { Route } from './router';
import { Field, fieldErrors, ScreenTitle } from './ui';
import { WriteOutcome } from './write';

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
  const { client, facilityId, can, timeZone, reloadPolicy } = useFacility();
  const canWrite = can('policy.write');
  const [draft, setDraft] = useState<Draft | null>(null);
  const loaded = useResource(() => client.policy.get(facilityId), [facilityId], {
    onReload: () => setDraft(null),
  });
  if (loaded.data === undefined) return <NotLoaded load={loaded} what="the policy" />;
  const { data: policy, etag } = loaded.data;
  const current = draft ?? draftOf(policy);
  const original = draftOf(policy);
  const errors = fieldErrors(loaded.failure);
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
  const submit = loaded.submit(
    async () => {
      await client.policy.update(facilityId, body as PolicyUpdate, { ifMatch: etag });
      // The shell's copy too: times and money on every screen follow the policy.
      reloadPolicy();
    },
    { notice: 'Policy saved.', blocked: Object.keys(local).length > 0 },
  );
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
                    onInput={(e) => setDraft({ ...current, [f.name]: e.currentTarget.value })}
                  />
                )
              }
            </Field>
          ))}
        </fieldset>
        <WriteOutcome write={loaded} onReload={loaded.reload} notice={!draft} />
        {canWrite && (
          <div class="actions">
            <button type="button" disabled={!draft} onClick={loaded.reload}>
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
