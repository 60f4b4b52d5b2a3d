import type { RoleGrant, StaffLink } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useConsole } from '../console-context';
import { formatTimestamp } from '../format';
import { NotLoaded, useResource } from '../resource';
import { Badge, ScreenTitle } from '../ui';
import { WriteOutcome } from '../write';
import { LinkOutcome } from './link';
import { RolesEditor, rolesText } from './roles';

/** #/staff/4: one person: their roles (changed in place), a new invitation or reset link, disable or enable. */
export function StaffPage({ staffUserId }: { staffUserId: number }) {
  const { who, facilities } = useConsole();
  const { client } = who;
  const [draft, setDraft] = useState<RoleGrant[] | null>(null);
  const [link, setLink] = useState<{ link: StaffLink; what: 'invitation' | 'password reset' } | null>(null);
  const person = useResource(() => client.staff.get(staffUserId), [staffUserId], {
    onReload: () => setDraft(null),
  });
  const disabling = useConfirm<'disable'>();
  if (person.data === undefined) return <NotLoaded load={person} what="the person" />;
  const { data: user, etag } = person.data;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const send = (what: 'invitation' | 'password reset') =>
    person.write(
      async () => {
        setLink(null);
        const answer =
          what === 'invitation'
            ? await client.staff.resendInvitation(staffUserId)
            : await client.staff.sendPasswordReset(staffUserId);
        if (answer.invitation) setLink({ link: answer.invitation, what });
      },
      { after: person.refresh },
    );
  const setState = (state: 'active' | 'disabled') =>
    person.write(
      async () => {
        // A link sent before no longer says what matters (a disabled person's links stop working).
        setLink(null);
        await client.staff.update(staffUserId, { state }, { ifMatch: etag });
      },
      {
        notice:
          state === 'disabled'
            ? `${user.name} is disabled: their sessions ended.`
            : `${user.name} may sign in again.`,
      },
    );
  return (
    <section>
      <p class="crumbs">
        <a href="#/staff">Staff</a> /
      </p>
      <div class="screen-head">
        <ScreenTitle>{user.name}</ScreenTitle>
        <Badge value={user.state} />
      </div>
      <dl class="details">
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Roles</dt>
        <dd>{rolesText(user.roles, facilities)}</dd>
        <dt>Password</dt>
        <dd>{user.has_password ? 'Set' : 'Not set (identity provider only, or not yet)'}</dd>
        <dt>Last sign-in</dt>
        <dd>{formatTimestamp(user.last_sign_in_at, timeZone)}</dd>
      </dl>
      <WriteOutcome write={person} onReload={person.reload} />
      {link && <LinkOutcome person={user} link={link.link} what={link.what} />}
      <fieldset class="actions wrap">
        <legend class="visually-hidden">Actions</legend>
        {draft === null && (
          <button type="button" onClick={() => setDraft(user.roles)}>
            Change roles
          </button>
        )}
        {user.state === 'invited' && (
          <button type="button" onClick={() => send('invitation')}>
            Resend invitation
          </button>
        )}
        {user.state === 'active' && (
          <button type="button" onClick={() => send('password reset')}>
            Send password reset link
          </button>
        )}
        {user.state === 'disabled' ? (
          <button type="button" onClick={() => setState('active')}>
            Enable
          </button>
        ) : (
          <button type="button" class="danger" onClick={() => disabling.ask('disable')}>
            Disable
          </button>
        )}
      </fieldset>
      {disabling.dialog(() => ({
        title: `Disable ${user.name}?`,
        confirmLabel: 'Disable',
        danger: true,
        body: <p>They are signed out everywhere at once and may not sign in until enabled again.</p>,
        onConfirm: () => setState('disabled'),
      }))}
      {draft !== null && (
        <form
          class="form card"
          onSubmit={person.submit(
            () => client.staff.update(staffUserId, { roles: draft }, { ifMatch: etag }),
            {
              notice: 'Roles saved.',
            },
          )}
        >
          <RolesEditor roles={draft} facilities={facilities} onChange={setDraft} />
          <div class="actions">
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
            <button type="submit" class="primary" disabled={person.busy}>
              Save roles
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
