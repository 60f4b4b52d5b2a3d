import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { systemClock } from '../../core/clock.js';
import { keyPrincipal, type Principal } from '../../core/principal.js';
import { commandLineWriteContext, systemWriteContext, type WriteContext } from '../../core/write-context.js';
import type { ChangeCounter } from '../../db/change-counter.js';
import type { Db, Executor } from '../../db/database.js';
import { inWriteTransaction } from '../../journal/journal.js';
import { journalKeyChange } from './api-key.audit.js';
import {
  type ApiKey,
  countApiKeys,
  findApiKeyById,
  findApiKeyBySecretHash,
  insertApiKey,
  listApiKeyBatch,
  revokeApiKey,
} from './api-key.repository.js';

/** `fa_` and 32 random bytes: 256 bits, so a fast hash is enough to store it safely. */
const SECRET_FORMAT = /^fa_[A-Za-z0-9_-]{43}$/;

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function isWellFormedSecret(secret: string): boolean {
  return SECRET_FORMAT.test(secret);
}

/**
 * Creates a key, audited (api-key.audit.ts). Keys are made with the
 * `keys create` command, whose actor is `cli` (the default), and at the
 * first start (`system`).
 */
export async function createApiKey(
  db: Db,
  input: { name: string; role: ApiKey['role']; facilityIds: ApiKey['facilityIds'] },
  context: WriteContext = commandLineWriteContext(systemClock()),
): Promise<{ secret: string; key: ApiKey }> {
  const secret = `fa_${randomBytes(32).toString('base64url')}`;
  const createdAt = context.now.toISOString();
  const key = await inWriteTransaction(db, async (trx) => {
    const inserted = await insertApiKey(trx, { ...input, createdAt }, hashSecret(secret));
    journalKeyChange(trx, context, { action: 'create', before: null, after: inserted });
    return inserted;
  });
  return { secret, key };
}

/** Revokes an active key, audited; false when there is no active key with that id. */
export async function revokeKey(
  db: Db,
  id: number,
  context: WriteContext = commandLineWriteContext(systemClock()),
): Promise<boolean> {
  const revokedAt = context.now.toISOString();
  return inWriteTransaction(db, async (trx) => {
    const before = await findApiKeyById(trx, id);
    if (!before || before.revokedAt !== null || !(await revokeApiKey(trx, id, revokedAt))) return false;
    journalKeyChange(trx, context, { action: 'delete', before, after: { ...before, revokedAt } });
    return true;
  });
}

/** Creates the first admin key when the database has none; returns its secret, shown once. */
export async function createFirstAdminKey(db: Db, now: Date): Promise<string | undefined> {
  if ((await countApiKeys(db)) > 0) return undefined;
  const { secret } = await createApiKey(
    db,
    { name: 'initial admin', role: 'admin', facilityIds: 'all' },
    systemWriteContext(now),
  );
  return secret;
}

/** Enough verified keys for any real deployment; past it the memory starts over. */
const MAX_VERIFIED_KEYS = 10_000;
/**
 * A backstop, should the change notifications stop without the connection
 * that carries them noticing (a silently dropped TCP connection): no key is
 * trusted from memory for longer than this.
 */
const MAX_TRUST_MS = 60_000;

/** Verifies presented secrets (createKeyVerifier). */
export interface KeyVerifier {
  /** The key's principal: at once when it was verified before, else after a lookup; undefined for no valid key. */
  principalFor(secret: string): Principal | undefined | Promise<Principal | undefined>;
  /** Whether the text has the form of a key this service issues (`fa_` and 256 random bits). */
  isServiceKey(secret: string): boolean;
  /**
   * The keys' generation: it moves whenever a key may have changed (a
   * revocation); undefined while changes cannot be seen. A long request
   * verifies its key again when it moves.
   */
  generation(): number | undefined;
  /**
   * Forgets every key verified so far: after this process revoked one. A
   * change of another process or instance is seen by `changes`; one of this
   * process's own connection is not, on SQLite (data_version moves for other
   * connections' commits only).
   */
  forget(): void;
}

/**
 * Verifies presented secrets. A verified key is kept in memory, by its
 * secret, and trusted while `changes` says no connection has changed the keys
 * since it was read, so a request costs neither a hash nor a key lookup, and
 * a revocation still applies at once (SQLite: from the next turn of the event
 * loop; PostgreSQL: as soon as the notification arrives, milliseconds).
 * Unknown and revoked keys are never kept: they take the same path and the
 * same answer; the stored hash is compared in constant time.
 */
export function createKeyVerifier(
  db: Executor,
  changes: ChangeCounter,
  adminApiKey: string | undefined,
): KeyVerifier {
  const adminSecretHash = adminApiKey ? Buffer.from(hashSecret(adminApiKey), 'hex') : undefined;
  const verified = new Map<string, { principal: Principal; generation: number; until: number }>();

  const principalFor = (secret: string): Principal | undefined | Promise<Principal | undefined> => {
    const generation = changes.generation();
    const known = verified.get(secret);
    const now = performance.now();
    if (known !== undefined && known.generation === generation && now < known.until) return known.principal;
    if (!isWellFormedSecret(secret) && adminSecretHash === undefined) return undefined;
    const presentedHash = hashSecret(secret);
    const presented = Buffer.from(presentedHash, 'hex');
    if (adminSecretHash && timingSafeEqual(presented, adminSecretHash)) return ADMIN_PRINCIPAL;
    return findPrincipal(db, presentedHash, presented).then((principal) => {
      if (principal && generation !== undefined) {
        if (verified.size >= MAX_VERIFIED_KEYS) verified.clear();
        verified.set(secret, { principal, generation, until: now + MAX_TRUST_MS });
      }
      return principal;
    });
  };
  return {
    principalFor,
    isServiceKey: isWellFormedSecret,
    generation: () => changes.generation(),
    forget: () => verified.clear(),
  };
}

const ADMIN_PRINCIPAL: Principal = keyPrincipal({
  id: 0,
  name: 'ADMIN_API_KEY',
  role: 'admin',
  facilityIds: 'all',
});

async function findPrincipal(
  db: Executor,
  presentedHash: string,
  presented: Buffer,
): Promise<Principal | undefined> {
  const found = await findApiKeyBySecretHash(db, presentedHash);
  if (!found || !timingSafeEqual(Buffer.from(found.secretHash, 'hex'), presented)) return undefined;
  if (found.key.revokedAt !== null) return undefined;
  return keyPrincipal(found.key);
}

export async function findApiKey(db: Executor, id: number): Promise<ApiKey | undefined> {
  return findApiKeyById(db, id);
}

/** Up to `rows` keys after `afterId` that `keep` keeps, read in batches: a caller may see only some. */
export async function listApiKeysAfter(
  db: Executor,
  afterId: number,
  rows: number,
  keep: (key: ApiKey) => boolean,
): Promise<ApiKey[]> {
  const kept: ApiKey[] = [];
  for (let after = afterId; kept.length < rows; ) {
    const batch = await listApiKeyBatch(db, after, 500);
    kept.push(...batch.filter(keep));
    if (batch.length < 500) break;
    after = batch[batch.length - 1].id;
  }
  return kept.slice(0, rows);
}

export type { ApiKey };
