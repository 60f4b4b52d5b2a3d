import { useState } from 'preact/hooks';
import { clientFor, forgetKey, type SignedIn } from './api';
import { Field, fieldErrors, ProblemNotice } from './ui';
import { useWrite } from './write';

/** NIST SP 800-63B: length, not composition (the service checks the same, and more). */
const PASSWORD_MIN = 12;
const PASSWORD_MAX = 128;
export const PASSWORD_HINT = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. A few words you will remember make a good one; no need for symbols or digits. Not your e-mail address.`;

const PURPOSES = {
  invitation: { title: 'Welcome: choose your password', button: 'Set password and sign in' },
  password_reset: { title: 'Choose a new password', button: 'Set new password and sign in' },
  first_owner: { title: 'Create the first owner', button: 'Create owner and sign in' },
} as const;

export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `At least ${PASSWORD_MIN} characters (${length} so far)`;
  if (length > PASSWORD_MAX) return `At most ${PASSWORD_MAX} characters`;
  return undefined;
}

/**
 * #/link?purpose=…&token=…: the page of a one-time link (an invitation, a
 * password reset, the first owner's). It sets the password, and the service
 * signs the person in.
 */
export function LinkPage({
  query,
  onSignedIn,
}: {
  query: URLSearchParams;
  onSignedIn: (who: SignedIn) => void;
}) {
  const token = query.get('token') ?? '';
  const purpose = PURPOSES[query.get('purpose') as keyof typeof PURPOSES]
    ? (query.get('purpose') as keyof typeof PURPOSES)
    : 'invitation';
  const firstOwner = purpose === 'first_owner';
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const write = useWrite();
  const tooShort = passwordProblem(password);
  const send = write.submit(
    async () => {
      const client = clientFor();
      const body = firstOwner
        ? { token, password, email: email.trim(), name: name.trim() }
        : { token, password };
      const session = await client.session.signInWithLink(body);
      // A person now: an API key this tab held is no longer the one to use.
      forgetKey();
      window.location.hash = '#/';
      onSignedIn({ client, session, withKey: false });
    },
    { blocked: tooShort !== undefined },
  );
  const errors = fieldErrors(write.failure);
  const passwordError = (tried ? tooShort : undefined) ?? errors.password;
  return (
    <main class="centered signin">
      <form
        class="card"
        aria-labelledby="link-title"
        onSubmit={(event) => {
          setTried(true);
          send(event);
        }}
        noValidate
      >
        <h1 id="link-title">{PURPOSES[purpose].title}</h1>
        {token === '' && (
          <p class="notice error">This link has no token: open the whole link from the e-mail.</p>
        )}
        {firstOwner && (
          <>
            <Field label="E-mail" error={errors.email}>
              {(props) => (
                <input
                  {...props}
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onInput={(e) => setEmail(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Name" error={errors.name}>
              {(props) => (
                <input
                  {...props}
                  autoComplete="name"
                  required
                  value={name}
                  onInput={(e) => setName(e.currentTarget.value)}
                />
              )}
            </Field>
          </>
        )}
        <Field label="New password" hint={PASSWORD_HINT} error={passwordError}>
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        {write.failure !== undefined && Object.keys(errors).length === 0 && (
          <ProblemNotice error={write.failure} />
        )}
        <button type="submit" class="primary wide" disabled={write.busy || token === ''}>
          {write.busy ? 'Signing in…' : PURPOSES[purpose].button}
        </button>
        <p class="small">
          <a href="#/signin">Back to sign-in</a>
        </p>
      </form>
    </main>
  );
}
