import { useState } from 'preact/hooks';
import { clientFor, ProblemError, type SignedIn, signIn, storeKey } from './api';
import { ForgotPassword } from './forgot';
import { useLoad } from './resource';
import { Field, ProblemNotice } from './ui';
import { useWrite } from './write';

/** What the identity provider's way back (`#/signin?problem=…`) means, in words. */
const PROBLEM_WORDS: Record<string, string> = {
  oidc_unknown_person:
    'The identity provider signed you in, but no staff account here has that e-mail address. Ask an owner to invite you.',
  oidc_refused:
    'The identity provider did not confirm who you are (or your e-mail address), so you are not signed in.',
  oidc_expired: 'That sign-in took too long or was started in another browser. Please try again.',
  oidc_not_configured: 'Sign-in through an identity provider is not set up on this service.',
};

interface SignInProps {
  error?: unknown;
  /** The identity provider's way back said why it signed no one in. */
  problem?: string | null;
  /** Show the API key's form first (the key in use was refused). */
  keyFirst?: boolean;
  onSignedIn: (who: SignedIn) => void;
}

/** The sign-in page: e-mail and password; the identity provider when set up; an API key for integrators. */
export function SignIn({ error, problem, keyFirst = false, onSignedIn }: SignInProps) {
  const [way, setWay] = useState<'password' | 'key' | 'forgot'>(keyFirst ? 'key' : 'password');
  const options = useLoad(() => clientFor().session.options(), []);
  const oidc = options.data?.oidc;
  return (
    <main class="centered signin">
      <div class="card">
        <h1 id="signin-title">facility-admin console</h1>
        {problem && (
          <div class="notice error" role="alert">
            <p>{PROBLEM_WORDS[problem] ?? 'Signing in through the identity provider did not work.'}</p>
          </div>
        )}
        {way === 'key' && <KeyForm error={error} onSignedIn={onSignedIn} />}
        {way === 'password' && <PasswordForm error={error} onSignedIn={onSignedIn} />}
        {way === 'forgot' && <ForgotPassword onBack={() => setWay('password')} />}
        {way === 'password' && options.data?.password_reset && (
          <button type="button" class="link" onClick={() => setWay('forgot')}>
            Forgot your password?
          </button>
        )}
        {way === 'password' && oidc && (
          <a class="button wide" href={oidc.url}>
            {oidc.label}
          </a>
        )}
        {way !== 'forgot' && (
          <button type="button" class="link" onClick={() => setWay(way === 'key' ? 'password' : 'key')}>
            {way === 'key' ? 'Sign in with e-mail and password' : 'Sign in with an API key'}
          </button>
        )}
      </div>
    </main>
  );
}

function PasswordForm({ error, onSignedIn }: Omit<SignInProps, 'problem' | 'keyFirst'>) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, submit } = useWrite(error);
  const send = submit(async () => {
    const client = clientFor();
    const session = await client.session.signIn({ email: email.trim(), password });
    onSignedIn({ client, session, withKey: false });
  });
  const ended =
    failure instanceof ProblemError && failure.status === 401 && failure.code === 'unexpected_response';
  return (
    <form onSubmit={send} aria-labelledby="signin-title">
      {ended && <p class="notice">Your session ended. Please sign in again.</p>}
      <Field label="E-mail">
        {(props) => (
          <input
            {...props}
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Password">
        {(props) => (
          <input
            {...props}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        )}
      </Field>
      {failure !== undefined && !ended && <ProblemNotice error={failure} />}
      <button type="submit" class="primary wide" disabled={busy || email.trim() === '' || password === ''}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** For integrators: an API key, checked with the service, then kept in this tab's sessionStorage only. */
function KeyForm({ error, onSignedIn }: Omit<SignInProps, 'problem' | 'keyFirst'>) {
  const [key, setKey] = useState('');
  const { busy, failure, submit } = useWrite(error);
  const send = submit(async () => {
    const who = await signIn(key.trim());
    storeKey(key.trim());
    onSignedIn(who);
  });
  const invalidKey = failure instanceof ProblemError && failure.status === 401;
  return (
    <form onSubmit={send} aria-labelledby="signin-title">
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
      <button type="submit" class="primary wide" disabled={busy || key.trim() === ''}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
