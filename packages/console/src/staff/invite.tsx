import type { RoleGrant, StaffUser } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../console-context';
import { Field, fieldErrors, ScreenTitle } from '../ui';
import { FormEnd, useWrite } from '../write';
import { LinkOutcome } from './link';
import { RolesEditor } from './roles';

/** #/staff/new: invite a person by e-mail, with their roles; the link is e-mailed, or shown to pass on. */
export function InviteForm() {
  const { who, facilities } = useConsole();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<RoleGrant[]>([]);
  const [invited, setInvited] = useState<StaffUser | null>(null);
  const write = useWrite();
  const errors = fieldErrors(write.failure);
  const send = write.submit(async () => {
    const answer = await who.client.staff.invite({ email: email.trim(), name: name.trim(), roles });
    setInvited(answer.data);
  });
  return (
    <section>
      <p class="crumbs">
        <a href="#/staff">Staff</a> /
      </p>
      <ScreenTitle>Invite a person</ScreenTitle>
      {invited?.invitation ? (
        <>
          <LinkOutcome person={invited} link={invited.invitation} what="invitation" />
          <p class="actions wrap">
            <a class="button" href={`#/staff/${invited.id}`}>
              Open {invited.name}
            </a>
            <a class="button" href="#/staff">
              Back to staff
            </a>
          </p>
        </>
      ) : (
        <form class="form card" onSubmit={send}>
          <Field label="E-mail" error={errors.email}>
            {(props) => (
              <input
                {...props}
                type="email"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Name" error={errors.name}>
            {(props) => (
              <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
            )}
          </Field>
          <RolesEditor roles={roles} facilities={facilities} onChange={setRoles} />
          <FormEnd write={write} submitLabel="Send invitation" busyLabel="Inviting…" />
        </form>
      )}
    </section>
  );
}
