import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { prepareQuery } from '../../../db/prepared-query.js';
import type { MemberCredentialsTable } from '../../../db/schema.js';
import type { CredentialType } from './credential.schemas.js';
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
  const [row] = await findCredentialByHashQuery(db, { facilityId, valueHash: hashCredentialValue(value) });
  return row;
}

/** Every access decision by card looks one up: compiled once (prepareQuery). */
const findCredentialByHashQuery = prepareQuery<{ facilityId: number; valueHash: string }, CredentialRow>(
  (db, param) =>
    db
      .selectFrom('member_credentials')
      .selectAll()
      .where('facility_id', '=', param('facilityId'))
      .where('value_hash', '=', param('valueHash'))
      .orderBy((eb) => eb.case().when('revoked_at', 'is', null).then(0).else(1).end())
      .orderBy('id', 'desc')
      .limit(1),
);

export const CREDENTIAL_COLUMNS = [
  'id',
  'facility_id',
  'member_id',
  'type',
  'value_last4',
  'label',
  'created_at',
  'revoked_at',
] as const satisfies readonly (keyof CredentialRow)[];

/** A credential as the API and the audit trail see it: without its value's hash. */
export type CredentialRecord = Omit<Pick<CredentialRow, (typeof CREDENTIAL_COLUMNS)[number]>, 'type'> & {
  type: CredentialType;
};

/** Stores a credential; a value held by another not revoked one fails on the unique index. */
export async function insertCredential(
  db: Executor,
  values: Omit<CredentialRow, 'id' | 'revoked_at' | 'type'> & { type: CredentialType },
): Promise<CredentialRecord> {
  return db
    .insertInto('member_credentials')
    .values({ ...values, revoked_at: null })
    .returning(CREDENTIAL_COLUMNS)
    .$narrowType<{ type: CredentialType }>()
    .executeTakeFirstOrThrow();
}

/** How many of a member's credentials are not revoked. Read under the member's lock. */
export async function countLiveCredentials(db: Executor, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('member_credentials')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findCredentialOfMember(
  db: Executor,
  memberId: number,
  credentialId: number,
): Promise<CredentialRecord | undefined> {
  return db
    .selectFrom('member_credentials')
    .select(CREDENTIAL_COLUMNS)
    .where('member_id', '=', memberId)
    .where('id', '=', credentialId)
    .$narrowType<{ type: CredentialType }>()
    .executeTakeFirst();
}

/** One page of a member's credentials, by id, revoked ones too. */
export async function listCredentialsPage(
  db: Executor,
  memberId: number,
  afterId: number,
  rows: number,
): Promise<CredentialRecord[]> {
  return db
    .selectFrom('member_credentials')
    .select(CREDENTIAL_COLUMNS)
    .where('member_id', '=', memberId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(rows)
    .$narrowType<{ type: CredentialType }>()
    .execute();
}

export async function markCredentialRevoked(db: Executor, credentialId: number, at: string): Promise<void> {
  await db.updateTable('member_credentials').set({ revoked_at: at }).where('id', '=', credentialId).execute();
}
