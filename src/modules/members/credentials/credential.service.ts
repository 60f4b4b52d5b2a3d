import { randomBytes } from 'node:crypto';
import { AppError, invalidField } from '../../../core/errors.js';
import type { WriteContext } from '../../../core/write-context.js';
import type { Db } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/errors.js';
import type { PageRead } from '../../../db/page-rows.js';
import { type Write, type WriteTarget, writeExisting } from '../../../journal/write-path.js';
import { findMemberById, type MemberRecord } from '../member.repository.js';
import { memberNotFound } from '../member-read.service.js';
import {
  type CredentialRecord,
  countLiveCredentials,
  findCredentialOfMember,
  insertCredential,
  listCredentialsPage,
  markCredentialRevoked,
} from './credential.repository.js';
import type { CredentialCreate } from './credential.schemas.js';
import { hashCredentialValue, lastFourOf } from './credential-value.js';
import './credential.events.js';
import './credential.problems.js';
import '../member.problems.js';

/** Credentials a member may hold that are not revoked (docs/security.md, "Input limits"). */
export const MAX_CREDENTIALS_PER_MEMBER = 20;

/** A created credential: the one answer that holds its whole value. */
export type CreatedCredential = CredentialRecord & { value: string };

/**
 * The member whose credentials change, locked: a member's writes are one at a
 * time, so two creates cannot both pass the count. A credential has no ETag.
 */
function credentialsOf(facilityId: number, memberId: number): WriteTarget<MemberRecord> {
  return {
    lock: (trx) => findMemberById(trx, facilityId, memberId, { lock: true }),
    notFound: () => memberNotFound(facilityId, memberId),
  };
}

/** The value to store: the given one, checked against its type, or a random QR code. */
export function credentialValueOf(body: CredentialCreate): string {
  if (body.value === undefined) {
    if (body.type === 'qr') return randomBytes(16).toString('base64url');
    throw invalidField('body', '/value', `is required for a ${body.type}`);
  }
  if (body.type === 'pin' && !/^[0-9]{4,12}$/.test(body.value)) {
    throw invalidField('body', '/value', 'a PIN is 4 to 12 digits');
  }
  return body.value;
}

/**
 * Adds a credential to a member that is not removed. Its value is stored
 * as SHA-256 and last four only, and journaled never (not even its hash: a
 * PIN's is found by trying every PIN). The unique index decides a value
 * taken, by this member or another, even by a create committing meanwhile.
 */
export async function createCredential(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  body: CredentialCreate,
): Promise<CreatedCredential> {
  const value = credentialValueOf(body);
  const target = credentialsOf(facilityId, memberId);
  return writeExisting(db, context, target, async (write, member) => {
    if (member.status === 'removed') throw memberNotFound(facilityId, memberId);
    if ((await countLiveCredentials(write.trx, memberId)) >= MAX_CREDENTIALS_PER_MEMBER) {
      throw new AppError(
        'credential_limit_reached',
        `Member ${memberId} already has ${MAX_CREDENTIALS_PER_MEMBER} credentials that are not revoked; revoke one first`,
      );
    }
    const credential = await insertCredential(write.trx, {
      facility_id: facilityId,
      member_id: memberId,
      type: body.type,
      value_hash: hashCredentialValue(value),
      value_last4: lastFourOf(value),
      label: body.label ?? null,
      created_at: write.now.toISOString(),
    }).catch(rethrowValueTaken);
    journalCredential(write, 'create', null, credential);
    return { ...credential, value };
  });
}

function rethrowValueTaken(error: unknown): never {
  if (isUniqueViolation(error)) {
    throw new AppError(
      'credential_conflict',
      'Another credential of this facility that is not revoked has this value',
    );
  }
  throw error;
}

/** A member's credentials by id, revoked ones too (a read changes nothing). */
export async function listCredentialsOfMember(
  db: Db,
  facilityId: number,
  memberId: number,
  page: PageRead,
): Promise<CredentialRecord[]> {
  if (!(await findMemberById(db, facilityId, memberId))) throw memberNotFound(facilityId, memberId);
  return listCredentialsPage(db, memberId, page.afterId, page.rows);
}

/**
 * Revokes a credential: kept, for the check-ins that name it, but it opens
 * no door and its value may be given again. Revoking again changes nothing.
 * A removed member's credentials can be revoked (and listed).
 */
export async function revokeCredential(
  db: Db,
  context: WriteContext,
  facilityId: number,
  memberId: number,
  credentialId: number,
): Promise<void> {
  await writeExisting(db, context, credentialsOf(facilityId, memberId), async (write) => {
    const credential = await findCredentialOfMember(write.trx, memberId, credentialId);
    if (!credential) {
      throw new AppError(
        'credential_not_found',
        `Member ${memberId} has no credential with id ${credentialId}`,
      );
    }
    if (credential.revoked_at !== null) return;
    const revoked = { ...credential, revoked_at: write.now.toISOString() };
    await markCredentialRevoked(write.trx, credentialId, revoked.revoked_at);
    journalCredential(write, 'delete', credential, revoked);
  });
}

function journalCredential(
  write: Write,
  action: 'create' | 'delete',
  before: CredentialRecord | null,
  after: CredentialRecord,
): void {
  write.record({
    facilityId: after.facility_id,
    resourceType: 'credential',
    resourceId: after.id,
    action,
    before,
    after,
  });
}
