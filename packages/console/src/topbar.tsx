import type { ComponentChildren } from 'preact';
import { useConsole } from './console-context';
import { FacilitySwitcher } from './facility';
import { allows, callerWords } from './people';
import { useRoute } from './router';

/** The people's screens, each shown to those whose role allows it anywhere. */
const PEOPLE_LINKS = [
  { screen: 'facilities', label: 'Facilities', permission: 'read' },
  { screen: 'staff', label: 'Staff', permission: 'staff' },
  { screen: 'keys', label: 'API keys', permission: 'api_keys' },
] as const;

/**
 * The header of every signed-in screen: the facility switcher, the current
 * facility's screens (`children`), the people's screens, and who is signed
 * in (their account) with sign-out.
 */
export function TopBar({ facilityId, children }: { facilityId?: number; children?: ComponentChildren }) {
  const { who, signOut } = useConsole();
  const route = useRoute();
  const { session } = who;
  const here = route.facilityId === null ? route.screen : '';
  return (
    <>
      {/* A button, not a link to #main: the hash is the console's route. */}
      <button type="button" class="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header class="topbar">
        <a class="brand" href="#/">
          facility-admin
        </a>
        <FacilitySwitcher current={facilityId} />
        {children}
        <nav aria-label="Administration" class="people-nav">
          <ul>
            {PEOPLE_LINKS.filter((link) => allows(session, link.permission)).map((link) => (
              <li key={link.screen}>
                <a href={`#/${link.screen}`} aria-current={here === link.screen ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <a href="#/account" aria-current={here === 'account' ? 'page' : undefined} title="My account">
            {callerWords(session)}
          </a>
          {session.auth_mode !== 'none' && (
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          )}
        </div>
      </header>
    </>
  );
}
