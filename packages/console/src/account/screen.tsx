import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useConsole } from '../console-context';
import { facilityName, ROLE_HINTS, ROLE_WORDS } from '../people';
import { ScreenTitle } from '../ui';
import { useWrite, WriteOutcome } from '../write';
import { PasswordChange } from './password';
import { MySessions } from './sessions';

/**
 * #/account: who is signed in, their roles and what each allows; for a
 * person, their sessions and a password change; sign out here, or everywhere.
 */
export function AccountScreen() {
  const { who, facilities, signOut } = useConsole();
  const { session, client } = who;
  const person = session.actor.type === 'staff_user';
  const write = useWrite();
  const everywhere = useConfirm<'everywhere'>();
  // A password change ends the other sessions: the list is read again.
  const [changes, setChanges] = useState(0);
  return (
    <section>
      <ScreenTitle>My account</ScreenTitle>
      <dl class="details">
        <dt>Signed in as</dt>
        <dd>
          {session.actor.name}
          {session.actor.type === 'api_key' && ' (an API key)'}
          {session.auth_mode === 'none' && ' (authentication is off)'}
        </dd>
      </dl>
      <h2>My roles</h2>
      {session.roles.length === 0 ? (
        <p class="muted">No role yet: ask an owner to give you one.</p>
      ) : (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">My roles</caption>
            <thead>
              <tr>
                <th scope="col">Facility</th>
                <th scope="col">Role</th>
                <th scope="col">May</th>
              </tr>
            </thead>
            <tbody>
              {session.roles.map((grant) => (
                <tr key={grant.facility_id ?? 'all'}>
                  <td data-label="Facility">{facilityName(facilities, grant.facility_id)}</td>
                  <td data-label="Role">{ROLE_WORDS[grant.role]}</td>
                  <td data-label="May">{ROLE_HINTS[grant.role]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <WriteOutcome write={write} />
      {session.auth_mode !== 'none' && (
        <fieldset class="actions wrap">
          <legend class="visually-hidden">Signing out</legend>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
          {person && (
            <button type="button" class="danger" onClick={() => everywhere.ask('everywhere')}>
              Sign out everywhere
            </button>
          )}
        </fieldset>
      )}
      {person && <MySessions round={changes} />}
      {person && <PasswordChange onChanged={() => setChanges((n) => n + 1)} />}
      {everywhere.dialog(() => ({
        title: 'Sign out everywhere?',
        confirmLabel: 'Sign out everywhere',
        danger: true,
        body: <p>Every session of yours ends, on every device and browser, this one included.</p>,
        onConfirm: () =>
          write.run(async () => {
            await client.session.signOutEverywhere();
            signOut();
          }),
      }))}
    </section>
  );
}
