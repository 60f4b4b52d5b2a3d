import type { Policy, PolicyUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { ProblemError } from './api';
import { useFacility } from './context';
import { formatTimestamp, todayIn } from './format';
import { ClosuresEditor, closuresBody, closuresDraftOf } from './policy-closures';
import { POLICY_FIELDS as FIELDS, type PolicyField } from './policy-fields';
import { hoursBody, hoursDraftOf, OpeningHoursEditor } from './policy-hours';
import { PolicyScalarField, type ScalarDraft, scalarBody, scalarDraftOf } from './policy-scalar';
import { NotLoaded, useResource } from './resource';
import type { Route } from './router';
import { fieldErrors, ScreenTitle } from './ui';
import { WriteOutcome } from './write';

interface Draft {
  fields: ScalarDraft;
  hours: ReturnType<typeof hoursDraftOf>;
  closures: ReturnType<typeof closuresDraftOf>;
}

const draftOf = (policy: Policy): Draft => ({
  fields: scalarDraftOf(policy),
  hours: hoursDraftOf(policy.opening_hours),
  closures: closuresDraftOf(policy.closures),
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const hintOf = (name: string) => FIELDS.find((f) => f.name === name)?.description ?? '';

/** The service's problems with the hours and closures, by interval or closure (`/closures/2/ends_on` → `/closures/2`). */
function doorProblems(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ProblemError)) return out;
  for (const e of error.errors) {
    const key =
      /^\/(opening_hours\/[a-z]+\/\d+|closures\/\d+)/.exec(e.field)?.[0] ??
      /^\/(opening_hours|closures)/.exec(e.field)?.[0];
    if (key) out[key] = out[key] ? `${out[key]}; ${e.message}` : e.message;
  }
  return out;
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
  const original = draftOf(policy);
  const current = draft ?? original;
  const errors = fieldErrors(loaded.failure);
  const { body, problems: local } = scalarBody(current.fields, original.fields);
  const hours = hoursBody(current.hours);
  const closures = closuresBody(current.closures);
  if (!same(current.hours, original.hours)) body.opening_hours = hours.body;
  if (!same(current.closures, original.closures)) body.closures = closures.body;
  const door = { ...doorProblems(loaded.failure), ...hours.problems, ...closures.problems };
  const blocked =
    Object.keys(local).length + Object.keys(hours.problems).length + Object.keys(closures.problems).length >
    0;
  const submit = loaded.submit(
    async () => {
      await client.policy.update(facilityId, body as PolicyUpdate, { ifMatch: etag });
      // The shell's copy too: times and money on every screen follow the policy.
      reloadPolicy();
    },
    { notice: 'Policy saved.', blocked },
  );
  const edit = (change: Partial<Draft>) => setDraft({ ...current, ...change });
  const scalar = (f: PolicyField) => (
    <PolicyScalarField
      key={f.name}
      field={f}
      draft={current.fields}
      error={local[f.name] ?? errors[f.name]}
      onChange={(fields) => edit({ fields })}
    />
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
          {FIELDS.filter((f) => !f.door).map(scalar)}
        </fieldset>
        <h2 class="form-section">At the door</h2>
        <p class="muted small">
          Access decisions apply these rules to every check-in, in the facility's time zone.
        </p>
        <fieldset disabled={!canWrite} class="door-fields">
          <legend class="visually-hidden">Door rules</legend>
          <OpeningHoursEditor
            draft={current.hours}
            onChange={(hoursDraft) => edit({ hours: hoursDraft })}
            problems={door}
            hint={hintOf('opening_hours')}
          />
          <ClosuresEditor
            rows={current.closures}
            onChange={(rows) => edit({ closures: rows })}
            problems={door}
            hint={hintOf('closures')}
            today={todayIn(timeZone)}
          />
          <div class="policy-grid">
            {FIELDS.filter((f) => f.door && f.kind !== 'hours' && f.kind !== 'closures').map(scalar)}
          </div>
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
