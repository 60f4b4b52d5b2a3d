import type { WriteContext } from '../../core/write-context.js';
import type { Executor } from '../../db/database.js';
import { journalChange } from '../../journal/journal.js';
import './api-key.events.js';
import type { ApiKey } from './api-key.repository.js';

/**
 * The facility id of the audit entries of a key for every facility: the
 * whole service. Such an entry is in every facility's trail (the key gains or
 * loses access to each; audit.repository.ts), with `facility_id` 0.
 */
export const WHOLE_SERVICE_FACILITY_ID = 0;

/** What the audit trail keeps of a key: never its secret nor the secret's hash. */
function auditedFields(key: ApiKey) {
  return {
    name: key.name,
    role: key.role,
    facility_ids: key.facilityIds,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}

/**
 * Journals a key's creation (`create`) or revocation (`delete`): one audit
 * entry in each facility of its scope, or one for the whole service. No
 * event: the feed and webhooks carry a facility's data, and keys are not
 * (src/journal/event-types.ts maps no `api_key` change to an event).
 */
export function journalKeyChange(
  trx: Executor,
  context: WriteContext,
  change: { action: 'create' | 'delete'; before: ApiKey | null; after: ApiKey },
): void {
  const facilities =
    change.after.facilityIds === 'all' ? [WHOLE_SERVICE_FACILITY_ID] : change.after.facilityIds;
  for (const facilityId of facilities) {
    journalChange(trx, context, {
      facilityId,
      resourceType: 'api_key',
      resourceId: change.after.id,
      action: change.action,
      before: change.before && auditedFields(change.before),
      after: auditedFields(change.after),
    });
  }
}
