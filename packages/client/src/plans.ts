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
import type {
  Entitlement,
  Entitlements,
  EntitlementsReplace,
  EntitlementValue,
  Plan,
  PlanCreate,
  PlanUpdate,
} from './schema.js';

export type PlanListQuery = Query<'listPlans'>;

const plan = (facility_id: number, plan_id: number) => ({ path: { facility_id, plan_id } });
const entitlement = (facility_id: number, plan_id: number, key: string) => ({
  path: { facility_id, plan_id, key },
});

/** The plans of a facility. */
export function planOperations(api: Api) {
  return {
    list: async (facilityId: number, query: PlanListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/plans', {
          params: { ...facility(facilityId), query },
        }),
      ),
    get: async (facilityId: number, planId: number): Promise<Versioned<Plan>> =>
      versioned(
        await api.GET('/admin/facilities/{facility_id}/plans/{plan_id}', {
          params: plan(facilityId, planId),
        }),
      ),
    create: async (facilityId: number, body: PlanCreate, create?: CreateOptions): Promise<Versioned<Plan>> =>
      versioned(
        await api.POST('/admin/facilities/{facility_id}/plans', {
          params: { ...facility(facilityId), header: idempotency(create) },
          body,
        }),
      ),
    update: async (facilityId: number, planId: number, body: PlanUpdate, write?: WriteOptions) =>
      versioned(
        await api.PATCH('/admin/facilities/{facility_id}/plans/{plan_id}', {
          params: { ...plan(facilityId, planId), header: ifMatch(write) },
          body,
        }),
      ),
    delete: async (facilityId: number, planId: number, remove?: DeleteOptions): Promise<void> => {
      payloadOf(
        await api.DELETE('/admin/facilities/{facility_id}/plans/{plan_id}', {
          params: { ...plan(facilityId, planId), header: ifMatch(remove), query: hard(remove) },
        }),
      );
    },
  };
}

const ENTITLEMENTS = '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements' as const;
const ONE_ENTITLEMENT = '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}' as const;

/** The entitlements of a plan. */
export function entitlementOperations(api: Api) {
  return {
    get: async (facilityId: number, planId: number): Promise<Versioned<Entitlements>> =>
      versioned(await api.GET(ENTITLEMENTS, { params: plan(facilityId, planId) })),
    replace: async (facilityId: number, planId: number, body: EntitlementsReplace, write?: WriteOptions) =>
      versioned(
        await api.PUT(ENTITLEMENTS, {
          params: { ...plan(facilityId, planId), header: ifMatch(write) },
          body,
        }),
      ),
    /** Sets one key; `created` tells whether it is new (201) or replaced a value (200). */
    set: async (
      facilityId: number,
      planId: number,
      key: string,
      value: EntitlementValue,
      write?: WriteOptions,
    ): Promise<Versioned<Entitlement> & { created: boolean }> => {
      const result = await api.PUT(ONE_ENTITLEMENT, {
        params: { ...entitlement(facilityId, planId, key), header: ifMatch(write) },
        body: { value },
      });
      return { ...versioned(result), created: result.response.status === 201 };
    },
    delete: async (facilityId: number, planId: number, key: string, write?: WriteOptions): Promise<void> => {
      payloadOf(
        await api.DELETE(ONE_ENTITLEMENT, {
          params: { ...entitlement(facilityId, planId, key), header: ifMatch(write) },
        }),
      );
    },
  };
}
