import { type Api, facility, type Query } from './requests.js';
import { payloadOf } from './results.js';

export type TemplateListQuery = Query<'listPlanTemplates'>;
export type AuditEventListQuery = Query<'listAuditEvents'>;

/** The plan templates, the same for every facility. */
export function templateOperations(api: Api) {
  return {
    list: async (query: TemplateListQuery = {}) =>
      payloadOf(await api.GET('/admin/plan-templates', { params: { query } })),
  };
}

/** The audit trail of a facility. */
export function auditEventOperations(api: Api) {
  return {
    list: async (facilityId: number, query: AuditEventListQuery = {}) =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/audit-events', {
          params: { ...facility(facilityId), query },
        }),
      ),
  };
}
