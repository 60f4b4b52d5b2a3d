import { useCallback, useEffect, useState } from 'preact/hooks';
import { forgetKey, ProblemError, type SignedIn, signIn, storedKey, UNAUTHENTICATED_EVENT } from './api';
import { LinkPage } from './link';
import { useRoute } from './router';
import { SignedInConsole } from './signed-in';
import { SignIn } from './signin';
import { Loading, ProblemNotice } from './ui';

type Boot =
  | { state: 'checking' }
  | { state: 'signed-out'; error?: unknown; withKey?: boolean }
  | { state: 'in'; who: SignedIn };

/**
 * The console: signs in (a person's session cookie, a key kept in
 * sessionStorage, or none when the service runs with AUTH_MODE=none), then
 * shows the facilities' screens and the people's.
 */
export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'checking' });
  const route = useRoute();

  useEffect(() => {
    const key = storedKey() ?? undefined;
    // Without a key, ask anyway: a person's session cookie, or a service with authentication off, answers.
    signIn(key).then(
      (who) => setBoot({ state: 'in', who }),
      (error) => {
        if (key) forgetKey();
        // No key and a 401 is the usual start (no one signed in); anything else is worth saying.
        const usual = !key && error instanceof ProblemError && error.status === 401;
        setBoot({ state: 'signed-out', error: usual ? undefined : error, withKey: Boolean(key) });
      },
    );
  }, []);

  useEffect(() => {
    const expired = () =>
      setBoot((current) => {
        if (current.state !== 'in') return current;
        forgetKey();
        return { state: 'signed-out', error: new ProblemError(401, undefined), withKey: current.who.withKey };
      });
    window.addEventListener(UNAUTHENTICATED_EVENT, expired);
    return () => window.removeEventListener(UNAUTHENTICATED_EVENT, expired);
  }, []);

  const signOut = useCallback(async () => {
    if (boot.state === 'in' && !boot.who.withKey && boot.who.session.auth_mode !== 'none') {
      // The session ends on the service; the cookie alone going would leave it open until it expires.
      await boot.who.client.session.signOut().catch(() => undefined);
    }
    forgetKey();
    window.location.hash = '';
    setBoot({ state: 'signed-out' });
  }, [boot]);
  const signedIn = useCallback((who: SignedIn) => setBoot({ state: 'in', who }), []);

  if (boot.state === 'checking') {
    return (
      <main class="centered">
        <Loading what="the console" />
      </main>
    );
  }
  // A link from an e-mail (an invitation, a reset, the first owner's) opens its page whoever is signed in.
  if (route.facilityId === null && route.screen === 'link') {
    return <LinkPage query={route.query} onSignedIn={signedIn} />;
  }
  if (boot.state === 'signed-out') {
    const problem = route.screen === 'signin' ? route.query.get('problem') : null;
    return <SignIn error={boot.error} problem={problem} keyFirst={boot.withKey} onSignedIn={signedIn} />;
  }
  return <SignedInConsole who={boot.who} route={route} onSignOut={signOut} />;
}

export function Unavailable({ error }: { error: unknown }) {
  return (
    <main class="centered">
      <ProblemNotice error={error} />
    </main>
  );
}
