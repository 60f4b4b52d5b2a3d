import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database.js';
import * as initial from './migrations/0001_initial.js';
import * as apiKeys from './migrations/0002_api_keys.js';
import * as idempotencyAndAudit from './migrations/0003_idempotency_and_audit.js';
import * as entitlementsVersion from './migrations/0004_entitlements_version.js';
import * as apiKeysNotify from './migrations/0005_api_keys_notify.js';
import * as idempotencyEtag from './migrations/0006_idempotency_etag.js';
import * as memberSearch from './migrations/0007_member_search.js';
import * as memberSearchPendingList from './migrations/0008_member_search_pending_list.js';
import * as periodicJobs from './migrations/0009_periodic_jobs.js';
import * as memberLifecycle from './migrations/0010_member_lifecycle.js';
import * as memberFreezes from './migrations/0011_member_freezes.js';
import * as memberExternalId from './migrations/0015_member_external_id.js';
import * as events from './migrations/0020_events.js';
import * as webhooks from './migrations/0021_webhooks.js';
import * as memberSearchSqlite from './migrations/0030_member_search_sqlite.js';
import * as feedInCommitOrder from './migrations/0031_feed_in_commit_order.js';
import * as webhookDeliveryState from './migrations/0032_webhook_delivery_state.js';
import * as memberImports from './migrations/0033_member_imports.js';
import * as people from './migrations/0034_people.js';
import * as access from './migrations/0040_access.js';
import * as memberSearchFolded from './migrations/0041_member_search_folded.js';

/** Every migration, in order. Listed statically so the built package needs no file scanning. */
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_api_keys': apiKeys,
  '0003_idempotency_and_audit': idempotencyAndAudit,
  '0004_entitlements_version': entitlementsVersion,
  '0005_api_keys_notify': apiKeysNotify,
  '0006_idempotency_etag': idempotencyEtag,
  '0007_member_search': memberSearch,
  '0008_member_search_pending_list': memberSearchPendingList,
  '0009_periodic_jobs': periodicJobs,
  '0010_member_lifecycle': memberLifecycle,
  '0011_member_freezes': memberFreezes,
  '0015_member_external_id': memberExternalId,
  '0020_events': events,
  '0021_webhooks': webhooks,
  '0030_member_search_sqlite': memberSearchSqlite,
  '0031_feed_in_commit_order': feedInCommitOrder,
  '0032_webhook_delivery_state': webhookDeliveryState,
  '0033_member_imports': memberImports,
  '0034_people': people,
  '0040_access': access,
  '0041_member_search_folded': memberSearchFolded,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await new Migrator({ db, provider }).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/** Up (or down) to the migration named `name`: a migration's test starts from the schema before it. */
export async function migrateTo(db: Db, name: string): Promise<MigrationResultSet> {
  const result = await new Migrator({ db, provider }).migrateTo(name);
  if (result.error) throw result.error;
  return result;
}

/** True when every known migration has been applied (used by readiness checks). */
export async function isMigrated(db: Db): Promise<boolean> {
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
