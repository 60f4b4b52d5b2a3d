import { type Credential, type Member, paginate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useFacility } from '../context';
import { CopyCallout } from '../copy';
import { formatTimestamp } from '../format';
import { ListState, readAll, useResource } from '../resource';
import { WriteOutcome } from '../write';
import { CREDENTIAL_TYPE_WORDS, CredentialForm } from './credential-form';

const describe = (credential: Credential) =>
  `${CREDENTIAL_TYPE_WORDS[credential.type]} ending ${credential.value_last4}`;

/**
 * The member's cards, QR codes and PINs: each by its last four (the service
 * keeps no more); members.write adds one (its whole value shown once, to
 * copy) and revokes one. A removed member gets none, but its are listed and revocable.
 */
export function CredentialsPanel({ member }: { member: Member; etag: string; reload: () => void }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('members.write');
  const list = useResource(
    () =>
      readAll(paginate((cursor) => client.credentials.list(facilityId, member.id, cursor ? { cursor } : {}))),
    [facilityId, member.id],
  );
  const [created, setCreated] = useState<Credential | null>(null);
  const revoking = useConfirm<Credential>();
  const credentials = list.data;

  return (
    <section class="credentials" aria-labelledby="credentials-heading">
      <h2 id="credentials-heading">Credentials</h2>
      {created?.value && (
        <CopyCallout title={`${describe(created)} added`} label="Value" value={created.value}>
          <p>
            <strong>Copy the value now: it will not be shown again.</strong> The service keeps only its last
            four characters.
          </p>
        </CopyCallout>
      )}
      <ListState load={list} what="credentials" count={credentials?.length} empty="No credentials." />
      <WriteOutcome write={list} />
      {credentials && credentials.length > 0 && (
        <div class="table-wrap">
          <table class="list" aria-busy={list.state === 'loading'}>
            <caption class="visually-hidden">Credentials of this member</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Last 4</th>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Revoked</th>
                {canWrite && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {credentials.map((credential) => (
                <tr key={credential.id}>
                  <td data-label="Type">{CREDENTIAL_TYPE_WORDS[credential.type]}</td>
                  <td data-label="Last 4">
                    <code>…{credential.value_last4}</code>
                  </td>
                  <td data-label="Label">{credential.label ?? '—'}</td>
                  <td data-label="Created">{formatTimestamp(credential.created_at, timeZone)}</td>
                  <td data-label="Revoked">
                    {credential.revoked_at === null ? '—' : formatTimestamp(credential.revoked_at, timeZone)}
                  </td>
                  {canWrite && (
                    <td class="row-actions">
                      {credential.revoked_at === null && (
                        <button type="button" class="danger" onClick={() => revoking.ask(credential)}>
                          Revoke<span class="visually-hidden"> the {describe(credential)}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking.dialog((credential) => ({
        title: `Revoke the ${describe(credential)}?`,
        confirmLabel: 'Revoke',
        cancelLabel: 'Keep it',
        danger: true,
        body: <p>It opens no door from now on. It stays listed as revoked; its value may be given again.</p>,
        onConfirm: () =>
          list.write(() => client.credentials.revoke(facilityId, member.id, credential.id), {
            after: () => {
              if (created?.id === credential.id) setCreated(null);
              list.refresh();
            },
          }),
      }))}
      {canWrite &&
        (member.status === 'removed' ? (
          <p class="muted">A removed member cannot be given a credential.</p>
        ) : (
          <CredentialForm
            memberId={member.id}
            onCreated={(credential) => {
              setCreated(credential);
              list.refresh();
            }}
          />
        ))}
    </section>
  );
}
