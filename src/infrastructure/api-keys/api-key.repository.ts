import type { Selectable } from 'kysely';
import type { Role } from '../../core/roles.js';
import type { Executor } from '../../db/database.js';
import type { ApiKeysTable } from '../../db/schema.js';

export interface ApiKey {
  id: number;
  name: string;
  role: Role;
  facilityIds: number[] | 'all';
  createdAt: string;
  revokedAt: string | null;
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role as ApiKey['role'],
    facilityIds: row.facility_ids === null ? 'all' : (JSON.parse(row.facility_ids) as number[]),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export async function insertApiKey(
  db: Executor,
  key: Omit<ApiKey, 'id' | 'revokedAt'>,
  secretHash: string,
): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({
      name: key.name,
      role: key.role,
      facility_ids: key.facilityIds === 'all' ? null : JSON.stringify(key.facilityIds),
      secret_hash: secretHash,
      created_at: key.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

/** The key whose secret has this hash, revoked or not. */
export async function findApiKeyBySecretHash(db: Executor, secretHash: string) {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('secret_hash', '=', secretHash)
    .executeTakeFirst();
  return row && { key: toApiKey(row), secretHash: row.secret_hash };
}

export async function findApiKeyById(db: Executor, id: number): Promise<ApiKey | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiKey(row);
}

export async function listApiKeyBatch(db: Executor, afterId: number, rows: number): Promise<ApiKey[]> {
  const found = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(rows)
    .execute();
  return found.map(toApiKey);
}

export async function listApiKeys(db: Executor): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute();
  return rows.map(toApiKey);
}

export async function revokeApiKey(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countApiKeys(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
