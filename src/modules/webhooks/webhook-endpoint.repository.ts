import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { engineOf } from '../../db/engine/engine.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import type { WebhookEndpoint } from './webhook.schemas.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    facility_id: row.facility_id,
    url: row.url,
    description: row.description,
    types: JSON.parse(row.types),
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  } as WebhookEndpoint;
}

export async function insertEndpoint(
  db: Executor,
  values: Omit<
    EndpointRow,
    | 'id'
    | 'disabled_reason'
    | 'previous_secret'
    | 'previous_secret_expires_at'
    | 'failing_since'
    | 'locked_until'
    | 'last_served_at'
    | 'consecutive_failures'
  >,
): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(
  db: Executor,
  facilityId: number,
  endpointId: number,
): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpointId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
}

/**
 * The endpoint, locked for the rest of the transaction where the engine
 * locks rows (elsewhere the one writer already holds the database), so that
 * an If-Match checked against it still holds when the write lands.
 */
export async function findEndpointForUpdate(
  db: Executor,
  facilityId: number,
  endpointId: number,
): Promise<EndpointRow | undefined> {
  const query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpointId)
    .where('facility_id', '=', facilityId);
  return query.$if(engineOf(db).locksRows, (locked) => locked.forUpdate()).executeTakeFirst();
}

export async function findEndpointById(db: Executor, endpointId: number): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
}

export async function listEndpoints(db: Executor, facilityId: number): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .orderBy('id')
    .execute();
}

export async function countEndpoints(db: Executor, facilityId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateEndpoint(
  db: Executor,
  endpointId: number,
  values: Updateable<WebhookEndpointsTable>,
): Promise<EndpointRow> {
  return db
    .updateTable('webhook_endpoints')
    .set(values)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteEndpoint(db: Executor, endpointId: number): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute();
}
