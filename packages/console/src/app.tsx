import { useEffect, useState } from 'preact/hooks';
import { forgetKey, ProblemError, type SignedIn, signIn, storedKey, UNAUTHENTICATED_EVENT } from './api';
import { FacilityChooser } from './facility';
import { useRoute } from './router';
import { FacilityShell } from './shell';
import { SignIn } from './signin';
import { Loading, ProblemNotice } from './ui';

type Boot = { state: 'checking' } | { state: 'signed-out'; error?: unknown } | { state: 'in'; who: SignedIn };

/**
 * The console: signs in (a key kept in sessionStorage, or none when the service
 * runs with AUTH_MODE=none), then shows one facility's screens.
 */
export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'checking' });
  const route = useRoute();

  useEffect(() => {
    const key = storedKey();
    // Without a key, ask anyway: a service with authentication off answers, and needs no sign-in.
    signIn(key ?? '').then(
      (who) => setBoot({ state: 'in', who }),
      (error) => {
        if (key) forgetKey();
        // No key and a 401 is the usual start (authentication on); anything else is worth saying.
        const usual = !key && error instanceof ProblemError && error.status === 401;
        setBoot({ state: 'signed-out', error: usual ? undefined : error });
      },
    );
  }, []);

  useEffect(() => {
    const expired = () =>
      setBoot((current) => {
        if (current.state !== 'in') return current;
        forgetKey();
        return { state: 'signed-out', error: new ProblemError(401, undefined) };
      });
    window.addEventListener(UNAUTHENTICATED_EVENT, expired);
    return () => window.removeEventListener(UNAUTHENTICATED_EVENT, expired);
  }, []);

  if (boot.state === 'checking') {
    return (
      <main class="centered">
        <Loading what="the console" />
      </main>
    );
  }
  if (boot.state === 'signed-out') {
    return <SignIn error={boot.error} onSignedIn={(who) => setBoot({ state: 'in', who })} />;
  }
  const signOut = () => {
    forgetKey();
    window.location.hash = '';
    setBoot({ state: 'signed-out' });
  };
  if (route.facilityId === null) {
    return <FacilityChooser who={boot.who} onSignOut={signOut} />;
  }
  return (
    <FacilityShell
      key={route.facilityId}
      who={boot.who}
      route={{ ...route, facilityId: route.facilityId }}
      onSignOut={signOut}
    />
  );
}

export function Unavailable({ error }: { error: unknown }) {
  return (
    <main class="centered">
      <ProblemNotice error={error} />
    </main>
  );
}
