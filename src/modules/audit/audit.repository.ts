import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AuditEventsTable } from '../../db/schema.js';
import type { AuditEvent } from './audit.schemas.js';

function toAuditEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return { ...row, changes: JSON.parse(row.changes) } as AuditEvent;
}

export async function insertAuditEvent(db: Executor, event: Insertable<AuditEventsTable>): Promise<void> {
  await db.insertInto('audit_events').values(event).execute();
}

export async function listAuditEvents(
  db: Executor,
  facilityId: number,
  filter: {
    resourceType?: string;
    resourceId?: string;
    action?: string;
    since?: string;
    afterId: number;
    limit: number;
  },
): Promise<AuditEvent[]> {
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('id', '>', filter.afterId)
    .$if(filter.resourceType !== undefined, (qb) =>
      qb.where('resource_type', '=', filter.resourceType as string),
    )
    .$if(filter.resourceId !== undefined, (qb) => qb.where('resource_id', '=', filter.resourceId as string))
    .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action as string))
    .$if(filter.since !== undefined, (qb) => qb.where('occurred_at', '>=', filter.since as string))
    .orderBy('id')
    .limit(filter.limit)
    .execute();
  return rows.map(toAuditEvent);
}
