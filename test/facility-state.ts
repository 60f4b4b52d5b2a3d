/**
 * Everything the database holds for one facility, to show that a refused
 * request wrote nothing: every row of every table that belongs to the
 * facility (its audit trail and events among them), compared before and
 * after. FACILITY_TABLES says how each table belongs to a facility;
 * OTHER_TABLES says why a table is left out, and unclassifiedTables finds a
 * table that is in neither (test/access-matrix.test.ts fails on one).
 */
import type { App } from '../src/app.js';

/** Tables with a facility_id, and tables whose rows belong to a row of one (column, parent table). */
export const FACILITY_TABLES: Record<string, 'facility_id' | 'id' | { column: string; parent: string }> = {
  facilities: 'id',
  staff_roles: 'facility_id',
  plans: 'facility_id',
  entitlements: { column: 'plan_id', parent: 'plans' },
  members: 'facility_id',
  member_freezes: 'facility_id',
  member_credentials: 'facility_id',
  check_ins: 'facility_id',
  policies: 'facility_id',
  audit_events: 'facility_id',
  events: 'facility_id',
  webhook_endpoints: 'facility_id',
  webhook_deliveries: { column: 'endpoint_id', parent: 'webhook_endpoints' },
  member_imports: 'facility_id',
  member_import_chunks: { column: 'import_id', parent: 'member_imports' },
  member_import_writes: { column: 'import_id', parent: 'member_imports' },
};

export const OTHER_TABLES: Record<string, string> = {
  api_keys: 'keys span facilities; a key of a facility is seen in its audit trail (api_key entries)',
  staff_users: 'people span facilities; their roles of a facility are compared (staff_roles)',
  staff_sessions: 'a person’s sign-ins, not a facility’s data',
  staff_links: 'one-time links of people and sign-ins under way, not a facility’s data',
  idempotency_keys: 'an API key’s retries of its own requests, not a facility’s data',
  periodic_jobs: 'the service’s own schedule',
  kysely_migration: 'the schema’s version',
  kysely_migration_lock: 'the schema’s version',
  member_search: 'the SQLite search index of members, rebuilt from them',
};

/** The facility's rows, table by table, as one comparable text. */
export async function facilityState(app: App, facility: number): Promise<string> {
  const state: Record<string, unknown[]> = {};
  for (const [table, owner] of Object.entries(FACILITY_TABLES)) {
    // biome-ignore lint/suspicious/noExplicitAny: every table, read the same way
    const db = app.db as any;
    const query =
      owner === 'facility_id' || owner === 'id'
        ? db.selectFrom(table).selectAll().where(owner, '=', facility)
        : db
            .selectFrom(table)
            .selectAll()
            .where(
              owner.column,
              'in',
              db.selectFrom(owner.parent).select('id').where('facility_id', '=', facility),
            );
    const rows: Record<string, unknown>[] = await query.execute();
    state[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return JSON.stringify(state);
}

/** Tables of the database that are neither a facility's nor explained in OTHER_TABLES. */
export async function unclassifiedTables(app: App): Promise<string[]> {
  const tables = await app.db.introspection.getTables({ withInternalKyselyTables: true });
  return tables
    .map((table) => table.name)
    .filter((name) => !(name in FACILITY_TABLES))
    .filter(
      (name) => !Object.keys(OTHER_TABLES).some((other) => name === other || name.startsWith(`${other}_`)),
    );
}
