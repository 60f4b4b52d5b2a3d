import type { Credential, CredentialCreate } from '@facility-admin/client';
import { useId, useState } from 'preact/hooks';
import { useFacility } from '../context';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

type CredentialType = CredentialCreate['type'];

export const CREDENTIAL_TYPE_WORDS: Record<CredentialType, string> = {
  card: 'Card or fob',
  qr: 'QR code',
  pin: 'PIN',
};

const VALUE_HINTS: Record<CredentialType, string> = {
  card: 'The number the reader sends, as printed or read from the card',
  qr: 'The code’s text',
  pin: '4 to 12 digits',
};

const EMPTY = { type: 'card' as CredentialType, value: '', label: '', generate: true };

/**
 * Gives a credential. The service sends its whole value in this answer only:
 * the panel shows it once, to copy. No Idempotency-Key (the service ignores
 * it here): a double submit of a card or PIN is a 409 shown at the value.
 */
export function CredentialForm({
  memberId,
  onCreated,
}: {
  memberId: number;
  onCreated: (credential: Credential) => void;
}) {
  const { client, facilityId } = useFacility();
  const [draft, setDraft] = useState(EMPTY);
  const save = useWrite();
  const headingId = useId();
  const errors = fieldErrors(save.failure);
  const generated = draft.type === 'qr' && draft.generate;

  const submit = save.submit(async () => {
    const body: CredentialCreate = { type: draft.type };
    if (!generated) body.value = draft.value.trim();
    const label = draft.label.trim();
    if (label) body.label = label;
    const credential = await client.credentials.create(facilityId, memberId, body);
    setDraft({ ...EMPTY, type: draft.type });
    onCreated(credential);
  });

  return (
    <form class="form credential-form" onSubmit={submit} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>Add a credential</h3>
      <div class="grid">
        <Field label="Type" error={errors.type}>
          {(props) => (
            <select
              {...props}
              name="type"
              value={draft.type}
              onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value as CredentialType })}
            >
              {(Object.keys(CREDENTIAL_TYPE_WORDS) as CredentialType[]).map((type) => (
                <option key={type} value={type}>
                  {CREDENTIAL_TYPE_WORDS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.type === 'qr' && (
          <div class="field generate">
            <label class="check">
              <input
                type="checkbox"
                name="generate"
                checked={draft.generate}
                onChange={(e) => setDraft({ ...draft, generate: e.currentTarget.checked })}
              />{' '}
              Generate a random code
            </label>
          </div>
        )}
        {!generated && (
          <Field label="Value" hint={VALUE_HINTS[draft.type]} error={errors.value}>
            {(props) => (
              <input
                {...props}
                name="value"
                autoComplete="off"
                spellcheck={false}
                inputMode={draft.type === 'pin' ? 'numeric' : undefined}
                required
                value={draft.value}
                onInput={(e) => setDraft({ ...draft, value: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        <Field label="Label (optional)" hint="“Blue key fob”, “Phone”" error={errors.label}>
          {(props) => (
            <input
              {...props}
              name="label"
              autoComplete="off"
              value={draft.label}
              onInput={(e) => setDraft({ ...draft, label: e.currentTarget.value })}
            />
          )}
        </Field>
      </div>
      <FormEnd write={save} submitLabel="Add credential" busyLabel="Adding…" />
    </form>
  );
}
