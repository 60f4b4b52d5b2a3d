/**
 * What the HTTP rule tests (test/http-*.test.ts) share: the spec's 17
 * operations, a valid body for each that takes one, a request with exact
 * headers and payload, and the check that a problem body has its fields.
 */
import assert from 'node:assert/strict';
import type { Api, TestResponse } from './harness.js';

export const PROBLEM_FIELDS = ['code', 'detail', 'instance', 'request_id', 'status', 'title', 'type'];
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
export const MAX_SAFE = '9007199254740991';

/** The 17 operations of the spec, as OpenAPI names them. */
export const OPERATIONS = [
  'POST /admin/facilities/{facility_id}/plans',
  'GET /admin/facilities/{facility_id}/plans',
  'GET /admin/facilities/{facility_id}/plans/{plan_id}',
  'PATCH /admin/facilities/{facility_id}/plans/{plan_id}',
  'DELETE /admin/facilities/{facility_id}/plans/{plan_id}',
  'GET /admin/plan-templates',
  'GET /admin/facilities/{facility_id}/plans/{plan_id}/entitlements',
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements',
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}',
  'DELETE /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}',
  'POST /admin/facilities/{facility_id}/members',
  'GET /admin/facilities/{facility_id}/members',
  'GET /admin/facilities/{facility_id}/members/{member_id}',
  'PATCH /admin/facilities/{facility_id}/members/{member_id}',
  'DELETE /admin/facilities/{facility_id}/members/{member_id}',
  'GET /admin/facilities/{facility_id}/policy',
  'PATCH /admin/facilities/{facility_id}/policy',
];

/** A valid body for each operation that takes one. */
export const VALID_BODIES: Record<string, unknown> = {
  'POST /admin/facilities/{facility_id}/plans': { name: 'Valid plan' },
  'PATCH /admin/facilities/{facility_id}/plans/{plan_id}': {},
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements': { entitlements: [] },
  'PUT /admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}': { value: 1 },
  'POST /admin/facilities/{facility_id}/members': { first_name: 'Valid' },
  'PATCH /admin/facilities/{facility_id}/members/{member_id}': {},
  'PATCH /admin/facilities/{facility_id}/policy': {},
};
export const BODY_OPERATIONS = Object.keys(VALID_BODIES);

export function split(operation: string): { method: string; path: string } {
  const [method, path] = operation.split(' ');
  return { method, path };
}

/** Fills a path template; ids not given are 1, the key is "guest_passes". */
export function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => values[name] ?? (name === 'key' ? 'guest_passes' : '1'),
  );
}

/** A request with exactly the given headers and raw payload (the harness adds a JSON content type). */
export async function raw(
  api: Api,
  method: string,
  url: string,
  options: { payload?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const response = await api.app.inject({
    method: method as 'GET',
    url,
    headers: options.headers ?? {},
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}

export function allowOf(response: TestResponse): string[] {
  return String(response.headers.allow ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();
}

/** Exactly the problem fields, plus `errors` for validation errors. */
export function assertProblemShape(response: TestResponse, instance: string) {
  const expected =
    response.body.code === 'validation_error' ? [...PROBLEM_FIELDS, 'errors'].sort() : PROBLEM_FIELDS;
  assert.deepEqual(Object.keys(response.body).sort(), expected, response.text);
  assert.equal(response.body.instance, instance);
  assert.equal(typeof response.body.title, 'string');
  assert.ok(response.body.title.length > 0);
  assert.ok(response.body.detail.length > 0);
  assert.equal(response.body.request_id, response.headers['x-request-id']);
}

/** Plans and members created through the API, for the tests that need something to reach. */
export function resourceHelpers(api: Api) {
  async function newPlan(facility: number, name = 'Plan'): Promise<number> {
    const response = await api.post(`/admin/facilities/${facility}/plans`, { name });
    assert.equal(response.status, 201, response.text);
    return response.body.id;
  }
  async function newMember(facility: number): Promise<number> {
    const response = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ann' });
    assert.equal(response.status, 201, response.text);
    return response.body.id;
  }
  /** A new facility with one plan and one member, and the path ids that reach them (for fill). */
  async function facilityWithPlanAndMember() {
    const facility = api.newFacility();
    const plan = await newPlan(facility);
    const member = await newMember(facility);
    const ids = { facility_id: String(facility), plan_id: String(plan), member_id: String(member) };
    return { facility, plan, member, ids };
  }
  /** The names of every plan of a facility, archived ones included, in list order. */
  async function planNames(facility: number): Promise<string[]> {
    const response = await api.get(`/admin/facilities/${facility}/plans?include_inactive=true`);
    assert.equal(response.status, 200);
    return response.body.plans.map((p: { name: string }) => p.name);
  }
  return { newPlan, newMember, facilityWithPlanAndMember, planNames };
}
