import { useMemo } from 'preact/hooks';
import { AccountScreen } from './account/screen';
import type { SignedIn as Who } from './api';
import { ApiKeysScreen } from './api-keys/screen';
import { Console, type ConsoleContext } from './console-context';
import { FacilitiesScreen } from './facilities/screen';
import { FacilityChooser } from './facility';
import { readAll, useLoad } from './resource';
import type { Route } from './router';
import { FacilityShell } from './shell';
import { StaffScreen } from './staff/screen';
import { TopBar } from './topbar';

/** The screens that belong to no one facility: #/facilities, #/staff, #/keys, #/account. */
const PEOPLE_SCREENS = {
  facilities: FacilitiesScreen,
  staff: StaffScreen,
  keys: ApiKeysScreen,
  account: AccountScreen,
} as const;

/** The console once signed in: reads the facilities, then shows a facility's screens or a people screen. */
export function SignedInConsole({
  who,
  route,
  onSignOut,
}: {
  who: Who;
  route: Route;
  onSignOut: () => void;
}) {
  const { client } = who;
  const facilities = useLoad(
    () => readAll(client.paginate((cursor) => client.facilities.list({ status: 'all', cursor }))),
    [client],
  );
  const context = useMemo<ConsoleContext>(
    () => ({
      who,
      facilities: facilities.data ?? [],
      reloadFacilities: facilities.reload,
      signOut: onSignOut,
    }),
    [who, facilities.data, facilities.reload, onSignOut],
  );
  let content: preact.JSX.Element;
  if (route.facilityId !== null) {
    content = (
      <FacilityShell key={route.facilityId} who={who} route={{ ...route, facilityId: route.facilityId }} />
    );
  } else {
    const Screen = PEOPLE_SCREENS[route.screen as keyof typeof PEOPLE_SCREENS];
    content = Screen ? (
      <>
        <TopBar />
        <main id="main" tabIndex={-1}>
          <Screen key={`${route.screen}/${route.rest.join('/')}`} route={route} />
        </main>
      </>
    ) : (
      <FacilityChooser loading={facilities.data === undefined} />
    );
  }
  return <Console.Provider value={context}>{content}</Console.Provider>;
}
