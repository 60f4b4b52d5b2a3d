import type { StaffLink, StaffUser } from '@facility-admin/client';
import { CopyCallout } from '../copy';
import { formatTimestamp } from '../format';

/** After an invitation or a reset: e-mailed (said so), or the link to pass on when e-mail is not set up. */
export function LinkOutcome({
  person,
  link,
  what,
}: {
  person: Pick<StaffUser, 'name' | 'email'>;
  link: StaffLink;
  what: 'invitation' | 'password reset';
}) {
  const until = formatTimestamp(link.expires_at, Intl.DateTimeFormat().resolvedOptions().timeZone);
  if (link.emailed || link.url === null) {
    return (
      <p class="notice ok" role="status">
        The {what} link was e-mailed to {person.name} ({person.email}). It works once, until {until}.
      </p>
    );
  }
  return (
    <CopyCallout
      title={`${what === 'invitation' ? 'Invitation' : 'Password reset'} link`}
      label="Link"
      value={link.url}
    >
      <p>
        <strong>E-mail is not set up on this service:</strong> pass this link on to {person.name} (
        {person.email}) yourself. It works once, until {until}.
      </p>
    </CopyCallout>
  );
}
