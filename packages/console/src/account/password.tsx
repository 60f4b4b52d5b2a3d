import { useState } from 'preact/hooks';
import { useConsole } from '../console-context';
import { PASSWORD_HINT, passwordProblem } from '../link';
import { Field, fieldErrors } from '../ui';
import { FormEnd, useWrite } from '../write';

/** My account's password change: the current one, then the new; the service ends my other sessions. */
export function PasswordChange({ onChanged }: { onChanged: () => void }) {
  const { who } = useConsole();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [tried, setTried] = useState(false);
  const write = useWrite();
  const errors = fieldErrors(write.failure);
  const tooShort = passwordProblem(next);
  const send = write.submit(
    async () => {
      await who.client.session.changePassword({ current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setTried(false);
      onChanged();
    },
    { blocked: tooShort !== undefined, notice: 'Password changed. Your other sessions ended.' },
  );
  return (
    <form
      class="form card account-password"
      aria-labelledby="password-title"
      onSubmit={(event) => {
        setTried(true);
        send(event);
      }}
      noValidate
    >
      <h2 id="password-title">Change my password</h2>
      <Field label="Current password" error={errors.current_password}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="New password"
        hint={PASSWORD_HINT}
        error={(tried ? tooShort : undefined) ?? errors.new_password}
      >
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete="new-password"
            required
            maxLength={128}
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        )}
      </Field>
      <FormEnd write={write} submitLabel="Change password" busyLabel="Changing…" />
    </form>
  );
}
