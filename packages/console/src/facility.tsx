import { useState } from 'preact/hooks';
import type { SignedIn } from './api';
import { href, navigate } from './router';
import { Field, ScreenTitle } from './ui';

const RECENT_ITEM = 'facility-admin.recent-facilities';

/** The facilities opened lately, newest first (ids only: nothing secret). */
export function recentFacilities(): number[] {
  try {
    const ids = JSON.parse(localStorage.getItem(RECENT_ITEM) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id) => Number.isSafeInteger(id) && id > 0).slice(0, 8) : [];
  } catch {
    return [];
  }
}

export function rememberFacility(id: number): void {
  const ids = [id, ...recentFacilities().filter((other) => other !== id)].slice(0, 8);
  localStorage.setItem(RECENT_ITEM, JSON.stringify(ids));
}

/** The facilities to offer: a scoped key's own, else the recent ones. */
export function facilityChoices(who: SignedIn): number[] {
  return who.session.facility_ids ?? recentFacilities();
}

function FacilityIdForm({ label = 'Facility id' }: { label?: string }) {
  const [text, setText] = useState('');
  const valid = /^\d{1,15}$/.test(text) && Number(text) > 0;
  return (
    <form
      class="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) navigate(href(Number(text), 'members'));
      }}
    >
      <Field label={label}>
        {(props) => (
          <input
            {...props}
            inputMode="numeric"
            pattern="[0-9]*"
            value={text}
            onInput={(e) => setText(e.currentTarget.value.trim())}
          />
        )}
      </Field>
      <button type="submit" disabled={!valid}>
        Open
      </button>
    </form>
  );
}

/** The first screen after sign-in: pick a facility. */
export function FacilityChooser({ who, onSignOut }: { who: SignedIn; onSignOut: () => void }) {
  const scoped = who.session.facility_ids;
  const choices = facilityChoices(who);
  return (
    <main class="centered">
      <div class="card">
        <ScreenTitle>Choose a facility</ScreenTitle>
        <p class="muted">
          Signed in as <strong>{who.session.key_name}</strong> ({who.session.role}).{' '}
          {scoped ? 'This key reaches these facilities:' : 'This key reaches every facility: enter an id.'}
        </p>
        {choices.length > 0 && (
          <ul class="facility-list" aria-label={scoped ? 'Your facilities' : 'Recent facilities'}>
            {choices.map((id) => (
              <li key={id}>
                <a class="button" href={href(id, 'members')}>
                  Facility {id}
                </a>
              </li>
            ))}
          </ul>
        )}
        {!scoped && <FacilityIdForm />}
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </main>
  );
}

/** The header's switcher: a list for a scoped key, an id (with recent ones) for an all-facilities key. */
export function FacilitySwitcher({ who, current }: { who: SignedIn; current: number }) {
  const choices = [current, ...facilityChoices(who).filter((id) => id !== current)];
  if (who.session.facility_ids) choices.sort((a, b) => a - b);
  const [other, setOther] = useState('');
  return (
    <div class="switcher">
      <label for="facility-switcher">Facility</label>
      <select
        id="facility-switcher"
        value={String(current)}
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (value === 'other') setOther('other');
          else navigate(href(Number(value), 'members'));
        }}
      >
        {choices.map((id) => (
          <option key={id} value={String(id)}>
            {id}
          </option>
        ))}
        {!who.session.facility_ids && <option value="other">Other…</option>}
      </select>
      {other && <FacilityIdForm label="Other facility id" />}
    </div>
  );
}
