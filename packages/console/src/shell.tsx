import type { ComponentType } from 'preact';
import { useEffect, useMemo } from 'preact/hooks';
import { ActivityScreen } from './activity';
import type { SignedIn } from './api';
import { Facility, type FacilityContext } from './context';
import { FacilitySwitcher, rememberFacility } from './facility';
import { ImportExportScreen } from './import-export/screen';
import { MembersScreen } from './members/screen';
import { PlansScreen } from './plans/screen';
import { PolicyScreen } from './policy';
import { useLoad } from './resource';
import { href, type Route } from './router';
import { WebhooksScreen } from './webhooks/screen';

/**
 * The screens, in the navigation's order. A feature that lands later (CSV
 * import and export, then webhooks) adds one entry here and one component.
 */
const SCREENS: { path: string; label: string; component: ComponentType<{ route: Route }> }[] = [
  { path: 'members', label: 'Members', component: MembersScreen },
  { path: 'plans', label: 'Plans', component: PlansScreen },
  { path: 'policy', label: 'Policy', component: PolicyScreen },
  { path: 'activity', label: 'Activity', component: ActivityScreen },
  { path: 'import', label: 'Import & export', component: ImportExportScreen },
  { path: 'webhooks', label: 'Webhooks', component: WebhooksScreen },
];

interface ShellProps {
  who: SignedIn;
  route: Route & { facilityId: number };
  onSignOut: () => void;
}

/** One facility: the header (switcher, who is signed in, sign-out), the navigation and the current screen. */
export function FacilityShell({ who, route, onSignOut }: ShellProps) {
  const facilityId = route.facilityId;
  const policy = useLoad(() => who.client.policy.get(facilityId), [facilityId]);
  useEffect(() => rememberFacility(facilityId), [facilityId]);
  const context = useMemo<FacilityContext>(() => {
    const current = policy.data?.data ?? null;
    return {
      client: who.client,
      session: who.session,
      facilityId,
      canWrite: who.session.role === 'admin',
      policy: current,
      timeZone: current?.timezone ?? 'UTC',
      currency: current?.currency ?? 'USD',
      reloadPolicy: policy.reload,
    };
  }, [who, facilityId, policy.data, policy.reload]);
  const screen = SCREENS.find((s) => s.path === route.screen) ?? SCREENS[0];
  const Screen = screen.component;
  return (
    <Facility.Provider value={context}>
      {/* A button, not a link to #main: the hash is the console's route. */}
      <button type="button" class="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header class="topbar">
        <span class="brand">facility-admin</span>
        <FacilitySwitcher who={who} current={facilityId} />
        <nav aria-label="Screens">
          <ul>
            {SCREENS.map((s) => (
              <li key={s.path}>
                <a href={href(facilityId, s.path)} aria-current={s === screen ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {who.session.auth_mode === 'none' ? 'Authentication off' : who.session.key_name}
            {' · '}
            <span class={`role role-${who.session.role}`}>{who.session.role}</span>
          </span>
          {who.session.auth_mode !== 'none' && (
            <button type="button" class="link" onClick={onSignOut}>
              Sign out
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen key={`${route.screen}/${route.rest.join('/')}`} route={route} />
      </main>
    </Facility.Provider>
  );
}
