/** Helpers shared by the audit tests: reading the trail and making something to audit. */
import assert from 'node:assert/strict';
import type { Api } from '../../../test/harness.js';

export const f = (facility: number) => `/admin/facilities/${facility}`;

export interface AuditEventBody {
  id: number;
  resource_type: string;
  resource_id: string;
  action: string;
  api_key_id: number | null;
  api_key_name: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
  occurred_at: string;
}

export async function eventsOf(api: Api, facility: number, query = '', headers: Record<string, string> = {}) {
  const response = await api.get(`${f(facility)}/audit-events${query}`, headers);
  assert.equal(response.status, 200, response.text);
  return response.body.audit_events as AuditEventBody[];
}

/** The trail read as `resource_type:action` lines. */
export async function actionsOf(api: Api, facility: number, query = '') {
  return (await eventsOf(api, facility, query)).map((e) => `${e.resource_type}:${e.action}`);
}

export async function createPlanIn(api: Api, facility: number, body: Record<string, unknown> = {}) {
  const response = await api.post(`${f(facility)}/plans`, { name: 'Gold', ...body });
  assert.equal(response.status, 201, response.text);
  return { plan: response.body, url: `${f(facility)}/plans/${response.body.id}` };
}
