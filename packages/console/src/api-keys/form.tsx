import type { ApiKey, Role } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context';
import { facilityName, ROLE_HINTS, ROLE_WORDS } from '../people';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

const KEY_ROLES: Role[] = ['admin', 'owner', 'manager', 'front_desk', 'viewer', 'door'];

/** A new key: its name, role, and the facilities it reaches (all, or some). */
export function KeyForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (key: ApiKey) => void }) {
  const { who, facilities } = useConsole();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<number[]>([]);
  const write = useWrite();
  const errors = fieldErrors(write.failure);
  const body = { name: name.trim(), role, facility_ids: all ? null : chosen };
  const send = write.submit(async () => onCreated(await who.client.apiKeys.create(body)), {
    blocked: !all && chosen.length === 0,
  });
  const active = facilities.filter((f) => f.status === 'active');
  return (
    <form class="form card" onSubmit={send} aria-label="New API key">
      <Field label="Name" hint="What uses it: “door controller”, “website”." error={errors.name}>
        {(props) => (
          <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field label="Role" hint={ROLE_HINTS[role]} error={errors.role}>
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {KEY_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_WORDS[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>Facilities</legend>
        <label class="check">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> All
          facilities
        </label>
        {!all &&
          active.map((f) => (
            <label class="check" key={f.id}>
              <input
                type="checkbox"
                checked={chosen.includes(f.id)}
                onChange={(e) =>
                  setChosen(e.currentTarget.checked ? [...chosen, f.id] : chosen.filter((id) => id !== f.id))
                }
              />{' '}
              {facilityName(facilities, f.id)}
            </label>
          ))}
        {!all && chosen.length === 0 && <p class="field-error">Choose at least one facility.</p>}
      </fieldset>
      <FormEnd write={write} submitLabel="Create key" busyLabel="Creating…" onCancel={onCancel} />
    </form>
  );
}
