import { type Api, type CreateOptions, idempotency, type Query } from './requests.js';
import { payloadOf } from './results.js';
import type { Freeze, FreezeCreate } from './schema.js';

export type FreezeListQuery = Query<'listFreezes'>;

const ofMember = (facility_id: number, member_id: number) => ({ facility_id, member_id });

/** The dated freezes of a member. */
export function freezeOperations(api: Api) {
  return {
    list: async (facilityId: number, memberId: number, query: FreezeListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/members/{member_id}/freezes', {
          params: { path: ofMember(facilityId, memberId), query },
        }),
      ),
    create: async (
      facilityId: number,
      memberId: number,
      body: FreezeCreate,
      create?: CreateOptions,
    ): Promise<Freeze> =>
      payloadOf(
        await api.POST('/admin/facilities/{facility_id}/members/{member_id}/freezes', {
          params: { path: ofMember(facilityId, memberId), header: idempotency(create) },
          body,
        }),
      ),
    /** Cancels a freeze: a planned one never starts, one under way ends today. */
    cancel: async (facilityId: number, memberId: number, freezeId: number): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/facilities/{facility_id}/members/{member_id}/freezes/{freeze_id}', {
          params: { path: { ...ofMember(facilityId, memberId), freeze_id: freezeId } },
        }),
      );
    },
  };
}
