import type { WebhookDelivery } from '@facility-admin/client';
import { useEffect, useState } from 'preact/hooks';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { NotLoaded, readAll, useResource } from '../resource';
import { Badge, Empty, ProblemNotice } from '../ui';

/** The service lists deliveries oldest first: the table reads at most this many and shows the newest first. */
const MAX_READ = 1000;
const SHOWN = 50;
/** While a delivery is pending, the table asks again this often. */
const REFRESH_MS = 1500;

/** An endpoint's deliveries, newest first, with Retry on failed ones; it refreshes while any is pending. */
export function DeliveriesTable({ endpointId }: { endpointId: number }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('webhooks');
  const first = useResource(async () => {
    const all = await readAll(
      client.paginate((cursor) => client.webhooks.deliveries(facilityId, endpointId, { limit: 200, cursor })),
      MAX_READ,
    );
    return all.reverse();
  }, [facilityId, endpointId]);
  const [shown, setShown] = useState(SHOWN);
  const all = first.data ?? [];
  const rows = all.slice(0, shown);
  const pending = all.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!pending || first.state === 'loading') return;
    const timer = setTimeout(first.refresh, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [pending, first.state, first.data]);

  const retry = (delivery: WebhookDelivery) =>
    first.write(() => client.webhooks.retryDelivery(facilityId, endpointId, delivery.id), {
      after: first.refresh,
      notice: `Delivery ${delivery.id} is being sent again.`,
    });

  if (first.data === undefined) return <NotLoaded load={first} what="deliveries" />;
  return (
    <div class="deliveries">
      <div class="actions wrap">
        <button type="button" onClick={first.refresh}>
          Refresh deliveries
        </button>
      </div>
      {first.failure !== undefined && <ProblemNotice error={first.failure} />}
      <p class="small" role="status">
        {first.notice}
      </p>
      {rows.length === 0 ? (
        <Empty>No deliveries yet. Events of this endpoint's types, and test events, appear here.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event type</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last response</th>
                <th scope="col">Time</th>
                {canWrite && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td data-label="Event type">
                    <code>{d.type}</code>
                  </td>
                  <td data-label="Status">
                    <Badge value={d.status} />
                    {d.status === 'pending' && d.next_attempt_at && (
                      <span class="small muted"> next {formatTimestamp(d.next_attempt_at, timeZone)}</span>
                    )}
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Last response">
                    {d.last_response_status ?? '—'}
                    {d.last_error && <span class="small muted"> {d.last_error}</span>}
                  </td>
                  <td data-label="Time">{formatTimestamp(d.last_attempt_at ?? d.created_at, timeZone)}</td>
                  {canWrite && (
                    <td data-label="Actions" class="row-actions">
                      {d.status === 'failed' && (
                        <button type="button" onClick={() => retry(d)}>
                          Retry<span class="visually-hidden"> delivery {d.id}</span>
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
      {all.length > rows.length && (
        <div class="pager">
          <span class="muted small">
            Showing {rows.length} of {all.length} deliveries
            {all.length >= MAX_READ &&
              ` (the service lists them oldest first: only its first ${MAX_READ} are read)`}
          </span>
          <button type="button" onClick={() => setShown(shown + SHOWN)}>
            Show older deliveries
          </button>
        </div>
      )}
    </div>
  );
}
