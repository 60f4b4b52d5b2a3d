/**
 * What the HTTP rule tests (test/http-*.test.ts) share: the operations of the
 * served OpenAPI document (test/api-document.ts), a request for each built
 * from the document alone (its example body, ids of 1), a request with exact
 * headers and payload, and the check that a problem body has its fields.
 */
import assert from 'node:assert/strict';
import { OPERATIONS, type Operation, takesJson } from './api-document.js';
import type { Api, TestResponse } from './harness.js';
import { inject } from './inject.js';

export { OPERATIONS, type Operation } from './api-document.js';

export const PROBLEM_FIELDS = ['code', 'detail', 'instance', 'request_id', 'status', 'title', 'type'];
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
export const MAX_SAFE = '9007199254740991';

/** The operations that take a JSON body. */
export const JSON_BODY_OPERATIONS = OPERATIONS.filter(takesJson);

/** `METHOD /path`, for messages. */
export const nameOf = (operation: Operation) =>
  `${operation.operationId} (${operation.method} ${operation.path})`;

/** Fills a path template; ids not given are 1, the key is "guest_passes". */
export function fill(path: string, values: Record<string, string> = {}): string {
  return path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => values[name] ?? (name === 'key' ? 'guest_passes' : '1'),
  );
}

/**
 * A request for the operation from the document alone: its path filled (see
 * fill), its example body in its first media type. Enough for the rules that
 * are checked before anything is looked up (authentication, routing, media
 * types, validation).
 */
export function documentedRequest(
  operation: Operation,
  values: Record<string, string> = {},
): { method: string; url: string; headers: Record<string, string>; payload?: string } {
  const url = fill(operation.path, values);
  if (operation.bodyTypes.length === 0) return { method: operation.method, url, headers: {} };
  const body = operation.bodyExample ?? {};
  return {
    method: operation.method,
    url,
    headers: { 'content-type': operation.bodyTypes[0] },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** A request with exactly the given headers and raw payload (the harness adds a JSON content type). */
export function raw(
  api: Api,
  method: string,
  url: string,
  options: { payload?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  return inject(api.app, { method, url, headers: options.headers, payload: options.payload });
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
