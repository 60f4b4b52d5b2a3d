import type { Api, Query } from './requests.js';
import { payloadOf } from './results.js';
import type { Credential, CredentialCreate } from './schema.js';

export type CredentialListQuery = Query<'listCredentials'>;

const ofMember = (facility_id: number, member_id: number) => ({ facility_id, member_id });

/** A member's cards, QR codes and PINs. */
export function credentialOperations(api: Api) {
  return {
    list: async (facilityId: number, memberId: number, query: CredentialListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/members/{member_id}/credentials', {
          params: { path: ofMember(facilityId, memberId), query },
        }),
      ),
    /**
     * Gives a credential. The answer's `value` is the whole value, shown this
     * once; the service ignores Idempotency-Key here (a retry of a card or
     * PIN is 409 `credential_conflict`).
     */
    create: async (facilityId: number, memberId: number, body: CredentialCreate): Promise<Credential> =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/members/{member_id}/credentials', {
          params: { path: ofMember(facilityId, memberId) },
          body,
        }),
      ),
    /** Revokes a credential; revoking again changes nothing. */
    revoke: async (facilityId: number, memberId: number, credentialId: number): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/facilities/{facility_id}/members/{member_id}/credentials/{credential_id}', {
          params: { path: { ...ofMember(facilityId, memberId), credential_id: credentialId } },
        }),
      );
    },
  };
}
