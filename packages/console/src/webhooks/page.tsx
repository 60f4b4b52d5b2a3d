import type { WebhookEndpoint, WebhookEndpointPatch } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { href, navigate } from '../router';
import { ConfirmDialog, Loading, ProblemNotice, ScreenTitle, useLoad } from '../ui';
import { DeliveriesTable } from './deliveries';
import { EndpointForm } from './form';
import { EndpointState, typesText } from './list';
import { SecretCallout } from './secret';

type Pending = 'rotate' | 'delete' | null;

/**
 * One endpoint: its fields, Edit, Send test event, Rotate secret and Delete
 * (both confirmed), and its deliveries. Edits and the delete send If-Match: a
 * change someone else made in between is a 412, offered for reloading.
 */
export function WebhookPage({ endpointId }: { endpointId: number }) {
  const { client, facilityId, canWrite, timeZone } = useFacility();
  const loaded = useLoad(() => client.webhooks.get(facilityId, endpointId), [facilityId, endpointId]);
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [error, setError] = useState<unknown>();
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [round, setRound] = useState(0);
  if (loaded.state === 'loading' && !loaded.data) return <Loading what="the endpoint" />;
  if (loaded.state === 'error' && !loaded.data) return <ProblemNotice error={loaded.error} />;
  const { data: endpoint, etag } = loaded.data as { data: WebhookEndpoint; etag: string };
  const act = async (change: () => Promise<void>) => {
    setError(undefined);
    setNotice('');
    try {
      await change();
    } catch (caught) {
      setError(caught);
    }
  };
  const sendTest = () =>
    act(async () => {
      await client.webhooks.test(facilityId, endpointId);
      setNotice(
        endpoint.enabled
          ? 'Test event queued: a ping is on its way; follow it in the deliveries below.'
          : 'Test event queued: it is sent once the endpoint is enabled.',
      );
      setRound((n) => n + 1);
    });
  const confirm = () => {
    const what = pending;
    setPending(null);
    if (what === 'rotate')
      act(async () => {
        setSecret((await client.webhooks.rotateSecret(facilityId, endpointId)).secret);
        // A rotation is a write: read the endpoint's new ETag for the next edit.
        loaded.reload();
      });
    if (what === 'delete')
      act(async () => {
        await client.webhooks.delete(facilityId, endpointId, { ifMatch: etag });
        navigate(href(facilityId, 'webhooks'));
      });
  };
  return (
    <section>
      <p class="crumbs">
        <a href={href(facilityId, 'webhooks')}>Webhooks</a> /
      </p>
      <div class="screen-head">
        <ScreenTitle>
          <span class="url">{endpoint.url}</span>
        </ScreenTitle>
        <EndpointState endpoint={endpoint} />
      </div>
      {error !== undefined && <ProblemNotice error={error} onReload={loaded.reload} />}
      <p class="notice ok" role="status" hidden={!notice}>
        {notice}
      </p>
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
          <button type="button" onClick={() => setPending('rotate')}>
            Rotate secret
          </button>
          <button type="button" class="danger" onClick={() => setPending('delete')}>
            Delete
          </button>
        </fieldset>
      )}
      {pending && (
        <ConfirmDialog
          title={pending === 'rotate' ? 'Rotate the signing secret?' : 'Delete this endpoint?'}
          confirmLabel={pending === 'rotate' ? 'Rotate secret' : 'Delete endpoint'}
          danger={pending === 'delete'}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          {pending === 'rotate' ? (
            <p>
              The service makes a new secret and shows it once. The current secret stays valid for 24 hours,
              so update your receiver within that time.
            </p>
          ) : (
            <p>
              Events stop going to <span class="url">{endpoint.url}</span>, and its deliveries are removed,
              sent or not. This cannot be undone.
            </p>
          )}
        </ConfirmDialog>
      )}
      {editing ? (
        <EndpointForm
          endpoint={endpoint}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={() => {
            setEditing(false);
            loaded.reload();
          }}
          onSubmit={async (body) => {
            await client.webhooks.update(facilityId, endpointId, body as WebhookEndpointPatch, {
              ifMatch: etag,
            });
            setEditing(false);
            setNotice('Endpoint saved.');
            loaded.reload();
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
      <DeliveriesTable key={round} endpointId={endpointId} />
    </section>
  );
}
