import type { Permission } from '@facility-admin/client';
import type { ComponentType } from 'preact';
import { useEffect, useMemo } from 'preact/hooks';
import { ActivityScreen } from './activity';
import type { SignedIn } from './api';
import { Facility, type FacilityContext } from './context';
import { rememberFacility } from './facility';
import { FrontDeskScreen } from './front-desk/screen';
import { ImportExportScreen } from './import-export/screen';
import { MembersScreen } from './members/screen';
import { allows } from './people';
import { PlansScreen } from './plans/screen';
import { PolicyScreen } from './policy';
import { useLoad } from './resource';
import { href, type Route } from './router';
import { TopBar } from './topbar';
import { WebhooksScreen } from './webhooks/screen';

/**
 * The screens, in the navigation's order. A feature that lands later (CSV
 * import and export, then webhooks) adds one entry here and one component.
 */
const SCREENS: {
  path: string;
  label: string;
  /** Shown in the navigation to those whose role here allows it (the screen still opens by its address). */
  permission: Permission;
  component: ComponentType<{ route: Route }>;
}[] = [
  { path: 'members', label: 'Members', permission: 'read', component: MembersScreen },
  { path: 'front-desk', label: 'Front desk', permission: 'access', component: FrontDeskScreen },
  { path: 'plans', label: 'Plans', permission: 'read', component: PlansScreen },
  { path: 'policy', label: 'Policy', permission: 'read', component: PolicyScreen },
  { path: 'activity', label: 'Activity', permission: 'read', component: ActivityScreen },
  { path: 'import', label: 'Import & export', permission: 'read', component: ImportExportScreen },
  { path: 'webhooks', label: 'Webhooks', permission: 'webhooks', component: WebhooksScreen },
];

interface ShellProps {
  who: SignedIn;
  route: Route & { facilityId: number };
}

/** One facility: the header (switcher, its screens, who is signed in), and the current screen. */
export function FacilityShell({ who, route }: ShellProps) {
  const facilityId = route.facilityId;
  const policy = useLoad(() => who.client.policy.get(facilityId), [facilityId]);
  useEffect(() => rememberFacility(facilityId), [facilityId]);
  const context = useMemo<FacilityContext>(() => {
    const current = policy.data?.data ?? null;
    return {
      client: who.client,
      session: who.session,
      facilityId,
      can: (permission) => allows(who.session, permission, facilityId),
      policy: current,
      timeZone: current?.timezone ?? 'UTC',
      currency: current?.currency ?? 'USD',
      reloadPolicy: policy.reload,
    };
  }, [who, facilityId, policy.data, policy.reload]);
  const screens = SCREENS.filter((s) => allows(who.session, s.permission, facilityId));
  const screen = SCREENS.find((s) => s.path === route.screen) ?? SCREENS[0];
  const Screen = screen.component;
  return (
    <Facility.Provider value={context}>
      <TopBar facilityId={facilityId}>
        <nav aria-label="Screens">
          <ul>
            {screens.map((s) => (
              <li key={s.path}>
                <a href={href(facilityId, s.path)} aria-current={s === screen ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </TopBar>
      <main id="main" tabIndex={-1}>
        <Screen key={`${route.screen}/${route.rest.join('/')}`} route={route} />
      </main>
    </Facility.Provider>
  );
}
