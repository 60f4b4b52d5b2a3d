import {
  type Api,
  type CreateOptions,
  type DeleteOptions,
  facility,
  hard,
  idempotency,
  ifMatch,
  type Query,
  type WriteOptions,
} from './requests.js';
import { payloadOf, type Versioned, versioned } from './results.js';
import type { Member, MemberCreate, MemberUpdate } from './schema.js';

export type MemberListQuery = Query<'listMembers'>;

const member = (facility_id: number, member_id: number) => ({ path: { facility_id, member_id } });

/** The members of a facility. */
export function memberOperations(api: Api) {
  return {
    list: async (facilityId: number, query: MemberListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/members', {
          params: { ...facility(facilityId), query },
        }),
      ),
    get: async (facilityId: number, memberId: number): Promise<Versioned<Member>> =>
      versioned(
        await api.GET('/admin/facilities/{facility_id}/members/{member_id}', {
          params: member(facilityId, memberId),
        }),
      ),
    create: async (
      facilityId: number,
      body: MemberCreate,
      create?: CreateOptions,
    ): Promise<Versioned<Member>> =>
      versioned(
        await api.POST('/admin/facilities/{facility_id}/members', {
          params: { ...facility(facilityId), header: idempotency(create) },
          body,
        }),
      ),
    update: async (facilityId: number, memberId: number, body: MemberUpdate, write?: WriteOptions) =>
      versioned(
        await api.PATCH('/admin/facilities/{facility_id}/members/{member_id}', {
          params: { ...member(facilityId, memberId), header: ifMatch(write) },
          body,
        }),
      ),
    delete: async (facilityId: number, memberId: number, remove?: DeleteOptions): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/facilities/{facility_id}/members/{member_id}', {
          params: { ...member(facilityId, memberId), header: ifMatch(remove), query: hard(remove) },
        }),
      );
    },
  };
}
