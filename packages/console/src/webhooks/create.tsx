import type { WebhookEndpointCreate, WebhookEndpointWithSecret } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useFacility } from '../context';
import { href, navigate } from '../router';
import { Crumbs, ReadOnlyKey, ScreenTitle } from '../ui';
import { EndpointForm } from './form';
import { typesText } from './list';
import { SecretCallout } from './secret';

/**
 * A new endpoint. The service ignores Idempotency-Key on this POST (a stored
 * answer would keep the secret unencrypted), so the form guards against a
 * double submit itself. The answer's secret is shown here, once.
 */
export function WebhookCreateScreen() {
  const { client, facilityId, can } = useFacility();
  const canWrite = can('webhooks');
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  if (!canWrite) return <ReadOnlyKey />;
  return (
    <section>
      <Crumbs list="webhooks" label="Webhooks" />
      <ScreenTitle>{created ? 'Endpoint added' : 'Add endpoint'}</ScreenTitle>
      {created ? (
        <>
          <SecretCallout secret={created.secret}>
            <p>
              Endpoint <code class="url">{created.url}</code> receives{' '}
              {typesText(created.types).toLowerCase()}
              {created.enabled ? '.' : ' once you enable it.'}
            </p>
          </SecretCallout>
          <div class="actions wrap">
            <a class="button primary" href={href(facilityId, 'webhooks', created.id)}>
              Open the endpoint
            </a>
            <a class="button" href={href(facilityId, 'webhooks')}>
              Back to webhooks
            </a>
          </div>
        </>
      ) : (
        <EndpointForm
          submitLabel="Add endpoint"
          onCancel={() => navigate(href(facilityId, 'webhooks'))}
          onSubmit={async (body) => {
            setCreated(await client.webhooks.create(facilityId, body as WebhookEndpointCreate));
          }}
        />
      )}
    </section>
  );
}
