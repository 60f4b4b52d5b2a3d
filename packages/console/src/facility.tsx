import { useState } from 'preact/hooks';
import { useConsole } from './console-context';
import { facilityName } from './people';
import { href, navigate } from './router';
import { TopBar } from './topbar';
import { Field, Loading, ScreenTitle } from './ui';

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

/**
 * The facilities to offer, by id: those the caller's roles name (a scoped
 * key's, a person's), else every facility the service lists that is not
 * archived, with the ones opened lately by number.
 */
function useFacilityChoices(): { ids: number[]; scoped: boolean } {
  const { who, facilities } = useConsole();
  const scoped = who.session.facility_ids;
  if (scoped) return { ids: scoped, scoped: true };
  const listed = facilities.filter((f) => f.status === 'active').map((f) => f.id);
  const recent = recentFacilities().filter((id) => !listed.includes(id));
  return { ids: [...listed, ...recent], scoped: false };
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

/** The first screen after sign-in: pick a facility by name. */
export function FacilityChooser({ loading }: { loading: boolean }) {
  const { facilities } = useConsole();
  const { ids, scoped } = useFacilityChoices();
  return (
    <>
      <TopBar />
      <main id="main" tabIndex={-1} class="chooser">
        <div class="card">
          <ScreenTitle>Choose a facility</ScreenTitle>
          {loading && <Loading what="the facilities" />}
          {!loading && ids.length === 0 && (
            <p class="muted">{scoped ? 'You have no facility yet.' : 'No facility has a name yet.'}</p>
          )}
          {/* Names first: a list of bare numbers that turn into names would move under the pointer. */}
          {!loading && ids.length > 0 && (
            <ul class="facility-list" aria-label="Your facilities">
              {ids.map((id) => (
                <li key={id}>
                  <a class="button" href={href(id, 'members')}>
                    {facilityName(facilities, id)}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {!scoped && <FacilityIdForm label="Or open a facility by its id" />}
        </div>
      </main>
    </>
  );
}

/** The header's switcher, by name: the facilities the caller reaches (and the one open, whatever it is). */
export function FacilitySwitcher({ current }: { current?: number }) {
  const { facilities } = useConsole();
  const { ids } = useFacilityChoices();
  if (current === undefined && ids.length === 0) return null;
  const choices = current === undefined || ids.includes(current) ? ids : [current, ...ids];
  return (
    <div class="switcher">
      <label for="facility-switcher">Facility</label>
      <select
        id="facility-switcher"
        value={current === undefined ? '' : String(current)}
        onChange={(e) => {
          const value = e.currentTarget.value;
          if (value) navigate(href(Number(value), 'members'));
        }}
      >
        {current === undefined && <option value="">Choose…</option>}
        {choices.map((id) => (
          <option key={id} value={String(id)}>
            {facilityName(facilities, id)}
          </option>
        ))}
      </select>
    </div>
  );
}
