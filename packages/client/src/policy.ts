import { type Api, facility, ifMatch, type WriteOptions } from './requests.js';
import { type Versioned, versioned } from './results.js';
import type { Policy, PolicyUpdate } from './schema.js';

/** The policy of a facility. */
export function policyOperations(api: Api) {
  return {
    get: async (facilityId: number): Promise<Versioned<Policy>> =>
      versioned(await api.GET('/admin/facilities/{facility_id}/policy', { params: facility(facilityId) })),
    update: async (facilityId: number, body: PolicyUpdate, write?: WriteOptions) =>
      versioned(
        await api.PATCH('/admin/facilities/{facility_id}/policy', {
          params: { ...facility(facilityId), header: ifMatch(write) },
          body,
        }),
      ),
  };
}
