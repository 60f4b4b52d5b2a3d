import type { Executor } from '../../../db/database.js';
import { type CredentialRow, findCredentialByValue } from './credential.repository.js';

export type { CredentialRow };

/** The credential a door presents (credential.repository.ts says which one), for access decisions. */
export async function findPresentedCredential(
  db: Executor,
  facilityId: number,
  value: string,
): Promise<CredentialRow | undefined> {
  return findCredentialByValue(db, facilityId, value);
}
