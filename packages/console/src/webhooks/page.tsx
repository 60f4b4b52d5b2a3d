import type { WebhookEndpointPatch } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { NotLoaded, useResource } from '../resource';
import { href, navigate } from '../router';
import { ResourceHead } from '../ui';
import { WriteOutcome } from '../write';
import { DeliveriesTable } from './deliveries';
import { EndpointForm } from './form';
import { EndpointState, typesText } from './list';
import { SecretCallout } from './secret';

/**
 * One endpoint: its fields, Edit, Send test event, Rotate secret and Delete
 * (both confirmed), and its deliveries. Edits and the delete send If-Match: a
 * change someone else made in between is a 412, offered for reloading.
 */
export function WebhookPage({ endpointId }: { endpointId: number }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('webhooks');
  const [editing, setEditing] = useState(false);
  const loaded = useResource(() => client.webhooks.get(facilityId, endpointId), [facilityId, endpointId], {
    onReload: () => setEditing(false),
  });
  const confirmation = useConfirm<'rotate' | 'delete'>();
  const [secret, setSecret] = useState<string | null>(null);
  // Each test event reads the deliveries again.
  const [tests, setTests] = useState(0);
  if (loaded.data === undefined) return <NotLoaded load={loaded} what="the endpoint" />;
  const { data: endpoint, etag } = loaded.data;
  const sendTest = () =>
    loaded.write(() => client.webhooks.test(facilityId, endpointId), {
      after: () => setTests((n) => n + 1),
      notice: endpoint.enabled
        ? 'Test event queued: a ping is on its way; follow it in the deliveries below.'
        : 'Test event queued: it is sent once the endpoint is enabled.',
    });
  return (
    <section>
      <ResourceHead list="webhooks" label="Webhooks" title={<span class="url">{endpoint.url}</span>}>
        <EndpointState endpoint={endpoint} />
      </ResourceHead>
      <WriteOutcome write={loaded} onReload={loaded.reload} />
      {secret && (
        <SecretCallout secret={secret}>
          <p>
            The previous secret stays valid for 24 hours: deliveries carry both signatures meanwhile, so your
            receiver can switch over.
          </p>
        </SecretCallout>
      )}
      {canWrite && !editing && (
        <fieldset class="actions wrap">
          <legend class="visually-hidden">Endpoint actions</legend>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" onClick={sendTest}>
            Send test event
          </button>
          <button type="button" onClick={() => confirmation.ask('rotate')}>
            Rotate secret
          </button>
          <button type="button" class="danger" onClick={() => confirmation.ask('delete')}>
            Delete
          </button>
        </fieldset>
      )}
      {confirmation.dialog((what) =>
        what === 'rotate'
          ? {
              title: 'Rotate the signing secret?',
              confirmLabel: 'Rotate secret',
              body: (
                <p>
                  The service makes a new secret and shows it once. The current secret stays valid for 24
                  hours, so update your receiver within that time.
                </p>
              ),
              // A rotation is a write: the endpoint is read again for its new ETag.
              onConfirm: () =>
                loaded.write(async () =>
                  setSecret((await client.webhooks.rotateSecret(facilityId, endpointId)).secret),
                ),
            }
          : {
              title: 'Delete this endpoint?',
              confirmLabel: 'Delete endpoint',
              danger: true,
              body: (
                <p>
                  Events stop going to <span class="url">{endpoint.url}</span>, and its deliveries are
                  removed, sent or not. This cannot be undone.
                </p>
              ),
              onConfirm: () =>
                loaded.write(() => client.webhooks.delete(facilityId, endpointId, { ifMatch: etag }), {
                  after: () => navigate(href(facilityId, 'webhooks')),
                }),
            },
      )}
      {editing ? (
        <EndpointForm
          endpoint={endpoint}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={loaded.reload}
          onSubmit={async (body) => {
            await client.webhooks.update(facilityId, endpointId, body as WebhookEndpointPatch, {
              ifMatch: etag,
            });
            loaded.saved('Endpoint saved.');
          }}
        />
      ) : (
        <dl class="details">
          <dt>Events</dt>
          <dd>{typesText(endpoint.types)}</dd>
          <dt>Description</dt>
          <dd class="pre">{endpoint.description ?? '—'}</dd>
          {endpoint.disabled_reason && (
            <>
              <dt>Disabled by the service</dt>
              <dd>{endpoint.disabled_reason}. Enable it again with Edit once the receiver works.</dd>
            </>
          )}
          <dt>Created</dt>
          <dd>{formatTimestamp(endpoint.created_at, timeZone)}</dd>
          <dt>Updated</dt>
          <dd>{formatTimestamp(endpoint.updated_at, timeZone)}</dd>
        </dl>
      )}
      <h2>Deliveries</h2>
      <DeliveriesTable key={tests} endpointId={endpointId} />
    </section>
  );
}
