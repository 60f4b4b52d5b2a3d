import createFetchClient from 'openapi-fetch';
import { type Page, paginate } from './paginate.js';
import { payloadOf, type Versioned, versioned } from './results.js';
import type {
  Entitlement,
  Entitlements,
  EntitlementsReplace,
  EntitlementValue,
  Member,
  MemberCreate,
  MemberUpdate,
  operations,
  Plan,
  PlanCreate,
  PlanUpdate,
  Policy,
  PolicyUpdate,
  paths,
} from './schema.js';
import { type Fetch, type RetryOptions, retryingFetch } from './transport.js';

export interface ClientOptions {
  /** Where the service is, with its BASE_PATH if it has one: `https://admin.example.com/api/v1`. */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** The fetch to send requests with; the global fetch by default. */
  fetch?: Fetch;
  /** How to retry network errors, 409 `idempotency_in_progress`, 429 and 503; a number is `max`. */
  retries?: number | RetryOptions;
}

/** Options of a create: the Idempotency-Key to send (a new UUID per call by default). */
export interface CreateOptions {
  idempotencyKey?: string;
}

/** Options of an update: the ETag the resource must still have (412 `precondition_failed` if not). */
export interface WriteOptions {
  ifMatch?: string;
}

export interface DeleteOptions extends WriteOptions {
  /** Remove for good instead of archiving (plans) or marking removed (members). */
  hardDelete?: boolean;
}

type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;
export type PlanListQuery = Query<'listPlans'>;
export type MemberListQuery = Query<'listMembers'>;
export type TemplateListQuery = Query<'listPlanTemplates'>;
export type AuditEventListQuery = Query<'listAuditEvents'>;

/**
 * A client of the facility-admin API: one method per operation, typed from
 * the OpenAPI document. Reads and writes of one resource return it with its
 * ETag; failures throw a `ProblemError`.
 */
export function createClient(options: ClientOptions) {
  const retries = typeof options.retries === 'number' ? { max: options.retries } : options.retries;
  const fetchOnce: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(fetchOnce, retries),
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  const facility = (facility_id: number) => ({ path: { facility_id } });
  const plan = (facility_id: number, plan_id: number) => ({ path: { facility_id, plan_id } });
  const member = (facility_id: number, member_id: number) => ({ path: { facility_id, member_id } });
  const entitlement = (facility_id: number, plan_id: number, key: string) => ({
    path: { facility_id, plan_id, key },
  });
  const ifMatch = (write: WriteOptions = {}) =>
    write.ifMatch === undefined ? {} : { 'if-match': write.ifMatch };
  const idempotency = (create: CreateOptions = {}) =>
    create.idempotencyKey === undefined ? {} : { 'idempotency-key': create.idempotencyKey };
  const hard = (remove: DeleteOptions = {}) => (remove.hardDelete ? { hard_delete: true } : {});

  const plans = {
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

  const ENTITLEMENTS = '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements' as const;
  const ONE_ENTITLEMENT = '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}' as const;
  const entitlements = {
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

  const members = {
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

  const policy = {
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

  const templates = {
    list: async (query: TemplateListQuery = {}) =>
      payloadOf(await api.GET('/admin/plan-templates', { params: { query } })),
  };

  const auditEvents = {
    list: async (facilityId: number, query: AuditEventListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/audit-events', {
          params: { ...facility(facilityId), query },
        }),
      ),
  };

  return {
    plans,
    entitlements,
    members,
    policy,
    templates,
    auditEvents,
    /** Every item of a list, page after page: `listPage` gets the page that starts at `cursor`. */
    paginate: <P extends Page>(listPage: (cursor: string | undefined) => Promise<P>) => paginate(listPage),
  };
}

export type Client = ReturnType<typeof createClient>;
