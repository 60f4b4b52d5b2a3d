import type { WebhookEndpoint } from '@facility-admin/client';
import { useFacility } from '../context';
import { ListState, useLoad } from '../resource';
import { href } from '../router';
import { Badge, ScreenTitle } from '../ui';

export function typesText(types: readonly string[]): string {
  return types.length === 0 ? 'All events' : types.join(', ');
}

/** Enabled, or disabled with the service's reason when it disabled the endpoint itself. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <Badge value="enabled" />;
  return (
    <span class="endpoint-state">
      <Badge value="disabled" />
      {endpoint.disabled_reason && <span class="small muted"> {endpoint.disabled_reason}</span>}
    </span>
  );
}

/** The facility's webhook endpoints (the service answers them all at once: at most WEBHOOK_MAX_ENDPOINTS). */
export function WebhooksList() {
  const { client, facilityId, can } = useFacility();
  const canWrite = can('webhooks');
  const list = useLoad(async () => (await client.webhooks.list(facilityId)).webhook_endpoints, [facilityId]);
  return (
    <section>
      <div class="screen-head">
        <ScreenTitle>Webhooks</ScreenTitle>
        {canWrite && (
          <div class="actions">
            <a class="button primary" href={href(facilityId, 'webhooks', 'new')}>
              Add endpoint
            </a>
          </div>
        )}
      </div>
      <p class="muted">
        Endpoints receive the facility's events as signed HTTP requests (Standard Webhooks).
      </p>
      <ListState
        load={list}
        what="webhook endpoints"
        count={list.data?.length}
        empty={<>No webhook endpoints yet.{canWrite && ' Add one to send events to another system.'}</>}
      />
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label="URL" class="url">
                    <a href={href(facilityId, 'webhooks', endpoint.id)}>{endpoint.url}</a>
                  </td>
                  <td data-label="Events">{typesText(endpoint.types)}</td>
                  <td data-label="State">
                    <EndpointState endpoint={endpoint} />
                  </td>
                  <td data-label="Description">{endpoint.description ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
