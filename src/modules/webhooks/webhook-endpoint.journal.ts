import type { Updateable } from 'kysely';
import { writeTimeAfter } from '../../core/etag.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import { journalChange } from '../../journal/journal.js';
import { type EndpointRow, toEndpoint, updateEndpoint } from './webhook-endpoint.repository.js';
import './webhook.events.js';

/**
 * A change of an endpoint in the journal, as the API shows the endpoint:
 * its secrets are never in the audit trail. A rotation shows when the
 * secret it replaced stops signing, the one trace of a new secret.
 */
export function journalEndpoint(
  trx: Executor,
  context: WriteContext,
  action: 'create' | 'update' | 'delete',
  before: EndpointRow | null,
  after: EndpointRow | null,
  { eventType, rotation = false }: JournalOptions = {},
): void {
  const endpoint = (after ?? before) as EndpointRow;
  const shown = (row: EndpointRow | null) =>
    row && {
      ...toEndpoint(row),
      ...(rotation ? { previous_secret_expires_at: row.previous_secret_expires_at } : {}),
    };
  journalChange(trx, context, {
    facilityId: endpoint.facility_id,
    resourceType: 'webhook_endpoint',
    resourceId: endpoint.id,
    action,
    before: shown(before),
    after: shown(after),
    eventType,
  });
}

export interface JournalOptions {
  eventType?: 'webhook_endpoint.disabled';
  /** A new secret: the trail shows `previous_secret_expires_at`. */
  rotation?: boolean;
}

/** An update of an endpoint, its `updated_at` moved on, journaled. */
export async function updateJournaled(
  trx: Executor,
  context: WriteContext,
  current: EndpointRow,
  values: Updateable<WebhookEndpointsTable>,
  options: JournalOptions = {},
): Promise<EndpointRow> {
  const now = context.now.getTime();
  const updated = await updateEndpoint(trx, current.id, {
    ...values,
    updated_at: writeTimeAfter(current.updated_at, now),
  });
  journalEndpoint(trx, context, 'update', current, updated, options);
  return updated;
}
