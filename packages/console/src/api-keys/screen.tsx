import type { ApiKey } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useConsole } from '../console-context';
import { CopyCallout } from '../copy';
import { formatTimestamp } from '../format';
import { allows, facilityName, ROLE_WORDS } from '../people';
import { ListState, readAll, useResource } from '../resource';
import { Badge, ProblemNotice, ScreenTitle } from '../ui';
import { WriteOutcome } from '../write';
import { KeyForm } from './form';

/** #/keys: API keys for integrations, for owners: list, create (the secret shown once), revoke. */
export function ApiKeysScreen() {
  const { who, facilities } = useConsole();
  const { client } = who;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKey | null>(null);
  const keys = useResource(
    () => readAll(client.paginate((cursor) => client.apiKeys.list({ cursor }))),
    [client],
  );
  const revoking = useConfirm<ApiKey>();
  if (!allows(who.session, 'api_keys'))
    return <ProblemNotice error={new Error('Only owners manage API keys.')} />;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const reach = (key: ApiKey) =>
    key.facility_ids === null
      ? 'All facilities'
      : key.facility_ids.map((id) => facilityName(facilities, id)).join(', ');
  return (
    <section>
      <div class="screen-head">
        <ScreenTitle>API keys</ScreenTitle>
        {!creating && (
          <div class="actions">
            <button type="button" class="primary" onClick={() => setCreating(true)}>
              Create a key
            </button>
          </div>
        )}
      </div>
      <p class="muted">
        Keys let other systems (a door controller, a website) call the API with a role of their own.
      </p>
      {created?.secret && (
        <CopyCallout title={`Key “${created.name}” created`} label="Key" value={created.secret}>
          <p>
            <strong>Copy this key now: it will not be shown again.</strong> The system sends it as{' '}
            <code>Authorization: Bearer &lt;key&gt;</code>.
          </p>
        </CopyCallout>
      )}
      {creating && (
        <KeyForm
          onCancel={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            keys.refresh();
          }}
        />
      )}
      <WriteOutcome write={keys} />
      <ListState load={keys} what="API keys" count={keys.data?.length} empty="No API keys yet." />
      {keys.data && keys.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Facilities</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Role">{ROLE_WORDS[key.role]}</td>
                  <td data-label="Facilities">{reach(key)}</td>
                  <td data-label="Created">{formatTimestamp(key.created_at, timeZone)}</td>
                  <td data-label="State">
                    <Badge value={key.revoked_at ? 'revoked' : 'active'} />
                  </td>
                  <td>
                    {!key.revoked_at && (
                      <button type="button" class="danger" onClick={() => revoking.ask(key)}>
                        Revoke<span class="visually-hidden"> {key.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking.dialog((key) => ({
        title: `Revoke “${key.name}”?`,
        confirmLabel: 'Revoke',
        danger: true,
        body: <p>Every system using this key is refused from its next request. This cannot be undone.</p>,
        onConfirm: () =>
          keys.write(() => client.apiKeys.revoke(key.id), { notice: `Key “${key.name}” revoked.` }),
      }))}
    </section>
  );
}
