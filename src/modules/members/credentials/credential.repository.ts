import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { MemberCredentialsTable } from '../../../db/schema.js';
import { hashCredentialValue } from './credential-value.js';

export type CredentialRow = Selectable<MemberCredentialsTable>;

/**
 * The credential a door presents: the one not revoked when there is one,
 * else the most recently revoked (a decision says `credential_revoked`
 * rather than `credential_unknown`); undefined when the facility never had it.
 */
export async function findCredentialByValue(
  db: Executor,
  facilityId: number,
  value: string,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('member_credentials')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('value_hash', '=', hashCredentialValue(value))
    .orderBy((eb) => eb.case().when('revoked_at', 'is', null).then(0).else(1).end())
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
