import { type Api, type CreateOptions, facility, idempotency, type Query } from './requests.js';
import { payloadOf } from './results.js';
import type { AccessDecision, AccessDecisionRequest, CheckIn, Occupancy } from './schema.js';

export type CheckInListQuery = Query<'listCheckIns'>;

/** The door: access decisions, the check-ins they record, check-outs and who is in now. */
export function accessOperations(api: Api) {
  return {
    accessDecisions: {
      /** Asks whether to let someone in (a credential as read, or a member id) and records it unless `dry_run`. */
      decide: async (
        facilityId: number,
        body: AccessDecisionRequest,
        create?: CreateOptions,
      ): Promise<AccessDecision> =>
        payloadOf(
          await api.POST('/admin/facilities/{facility_id}/access-decisions', {
            params: { ...facility(facilityId), header: idempotency(create) },
            body,
          }),
        ),
    },
    checkIns: {
      list: async (facilityId: number, query: CheckInListQuery = {}) =>
        payloadOf(
          await api.GET('/admin/facilities/{facility_id}/check-ins', {
            params: { ...facility(facilityId), query },
          }),
        ),
      /** Checks a member out; again changes nothing. */
      checkOut: async (facilityId: number, checkInId: number, create?: CreateOptions): Promise<CheckIn> =>
        payloadOf(
          await api.POST('/admin/facilities/{facility_id}/check-ins/{check_in_id}/check-out', {
            params: {
              path: { facility_id: facilityId, check_in_id: checkInId },
              header: idempotency(create),
            },
          }),
        ),
    },
    occupancy: {
      get: async (facilityId: number): Promise<Occupancy> =>
        payloadOf(
          await api.GET('/admin/facilities/{facility_id}/occupancy', { params: facility(facilityId) }),
        ),
    },
  };
}
