import { useState } from 'preact/hooks';
import { clientFor } from './api';
import { Field, ProblemNotice } from './ui';
import { useWrite } from './write';

/** "Forgot password": a reset link e-mailed to an active person; the answer is the same for any address. */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const write = useWrite();
  const send = write.submit(async () => {
    await clientFor().session.requestPasswordReset({ email: email.trim() });
    setSent(true);
  });
  return (
    <form onSubmit={send} aria-labelledby="signin-title">
      {sent ? (
        <p class="notice ok" role="status">
          If {email.trim()} belongs to an active account, a link to choose a new password is on its way. It
          works once.
        </p>
      ) : (
        <>
          <p class="muted">Enter your e-mail address: we send a link to choose a new password.</p>
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
          {write.failure !== undefined && <ProblemNotice error={write.failure} />}
          <button type="submit" class="primary wide" disabled={write.busy || email.trim() === ''}>
            {write.busy ? 'Sending…' : 'Send reset link'}
          </button>
        </>
      )}
      <button type="button" class="link" onClick={onBack}>
        Back to sign-in
      </button>
    </form>
  );
}
