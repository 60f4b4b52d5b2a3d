import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import type { Principal } from '../../http/auth.js';
import { type ApiKey, countApiKeys, findApiKeyBySecretHash, insertApiKey } from './api-key.repository.js';

/** `fa_` and 32 random bytes: 256 bits, so a fast hash is enough to store it safely. */
const SECRET_FORMAT = /^fa_[A-Za-z0-9_-]{43}$/;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function isWellFormedSecret(secret: string): boolean {
  return SECRET_FORMAT.test(secret);
}

export async function createApiKey(
  db: Executor,
  input: { name: string; role: ApiKey['role']; facilityIds: ApiKey['facilityIds'] },
): Promise<{ secret: string; key: ApiKey }> {
  const secret = `fa_${randomBytes(32).toString('base64url')}`;
  const key = await insertApiKey(db, { ...input, createdAt: new Date().toISOString() }, hashSecret(secret));
  return { secret, key };
}

/** Creates the first admin key when the database has none; returns its secret, shown once. */
export async function createFirstAdminKey(db: Executor): Promise<string | undefined> {
  if ((await countApiKeys(db)) > 0) return undefined;
  const { secret } = await createApiKey(db, { name: 'initial admin', role: 'admin', facilityIds: 'all' });
  return secret;
}

/**
 * The principal for a presented secret, or undefined. Unknown and revoked
 * keys take the same path and the same answer; the stored hash is compared in
 * constant time.
 */
export async function principalForSecret(
  db: Executor,
  secret: string,
  adminSecretHash: Buffer | undefined,
): Promise<Principal | undefined> {
  if (!isWellFormedSecret(secret) && adminSecretHash === undefined) return undefined;
  const presentedHash = hashSecret(secret);
  const presented = Buffer.from(presentedHash, 'hex');
  if (adminSecretHash && timingSafeEqual(presented, adminSecretHash)) {
    return { keyId: 0, keyName: 'ADMIN_API_KEY', role: 'admin', facilityIds: 'all' };
  }
  const found = await findApiKeyBySecretHash(db, presentedHash);
  if (!found || !timingSafeEqual(Buffer.from(found.secretHash, 'hex'), presented)) return undefined;
  if (found.key.revokedAt !== null) return undefined;
  return {
    keyId: found.key.id,
    keyName: found.key.name,
    role: found.key.role,
    facilityIds: found.key.facilityIds,
  };
}
