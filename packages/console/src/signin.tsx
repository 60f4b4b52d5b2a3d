import { useState } from 'preact/hooks';
import { ProblemError, type SignedIn, signIn, storeKey } from './api';
import { Field, ProblemNotice } from './ui';
import { useWrite } from './write';

/** Sign-in with an API key: checked with the service, then kept in this tab's sessionStorage only. */
export function SignIn({ error, onSignedIn }: { error?: unknown; onSignedIn: (who: SignedIn) => void }) {
  const [key, setKey] = useState('');
  const { busy, failure, submit } = useWrite(error);
  const send = submit(async () => {
    const who = await signIn(key.trim());
    storeKey(key.trim());
    onSignedIn(who);
  });
  const invalidKey = failure instanceof ProblemError && failure.status === 401;
  return (
    <main class="centered signin">
      <form onSubmit={send} class="card" aria-labelledby="signin-title">
        <h1 id="signin-title">facility-admin console</h1>
        <p class="muted">
          Sign in with an API key: the one printed on the service's first start, or one made with{' '}
          <code>facility-admin keys create</code>. It is kept in this browser tab until you sign out or close
          it.
        </p>
        <Field label="API key" error={invalidKey ? 'This key is not valid, or it was revoked' : undefined}>
          {(props) => (
            <input
              {...props}
              type="password"
              name="api-key"
              autoComplete="off"
              required
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        {failure !== undefined && !invalidKey && <ProblemNotice error={failure} />}
        <button type="submit" class="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
