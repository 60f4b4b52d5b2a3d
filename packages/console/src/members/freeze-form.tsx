import type { FreezeCreate } from '@facility-admin/client';
import { useId, useState } from 'preact/hooks';
import { idempotencyKeys } from '../api';
import { useFacility } from '../context';
import { todayIn } from '../format';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

const EMPTY = { starts_on: '', ends_on: '', reason: '' };

/**
 * Plans a dated freeze. The form keeps one Idempotency-Key per body, so a
 * double submit plans one freeze; a refusal (overlap, the yearly limit, the
 * policy) shows its detail, and a date's error beside its field.
 */
export function FreezeForm({ memberId, onPlanned }: { memberId: number; onPlanned: () => void }) {
  const { client, facilityId, timeZone } = useFacility();
  const [draft, setDraft] = useState(EMPTY);
  const save = useWrite();
  const [keyFor] = useState(idempotencyKeys);
  const headingId = useId();
  const errors = fieldErrors(save.failure);
  const today = todayIn(timeZone);
  const set = (field: keyof typeof EMPTY) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [field]: e.currentTarget.value });

  const submit = save.submit(async () => {
    const reason = draft.reason.trim();
    const body: FreezeCreate = { starts_on: draft.starts_on, ends_on: draft.ends_on };
    if (reason) body.reason = reason;
    await client.freezes.create(facilityId, memberId, body, { idempotencyKey: keyFor(body) });
    setDraft(EMPTY);
    onPlanned();
  });

  return (
    <form class="form freeze-form" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>Plan a freeze</h3>
      <div class="grid">
        <Field label="From" hint="The first frozen day" error={errors.starts_on}>
          {(props) => (
            <input
              {...props}
              name="starts_on"
              type="date"
              min={today}
              required
              value={draft.starts_on}
              onInput={set('starts_on')}
            />
          )}
        </Field>
        <Field label="To" hint="The last frozen day" error={errors.ends_on}>
          {(props) => (
            <input
              {...props}
              name="ends_on"
              type="date"
              min={draft.starts_on || today}
              required
              value={draft.ends_on}
              onInput={set('ends_on')}
            />
          )}
        </Field>
        <Field label="Reason (optional)" error={errors.reason}>
          {(props) => (
            <input {...props} name="reason" autoComplete="off" value={draft.reason} onInput={set('reason')} />
          )}
        </Field>
      </div>
      <FormEnd write={save} submitLabel="Plan freeze" busyLabel="Planning…" />
    </form>
  );
}
