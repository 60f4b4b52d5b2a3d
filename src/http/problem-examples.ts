import { ERROR_CODES, type ErrorCode, type FieldError, problemType } from '../core/errors.js';

/**
 * What each problem looks like, for the OpenAPI document's examples: a
 * detail as the service words it, per code.
 */
const EXAMPLES: Record<ErrorCode, { detail: string; errors?: FieldError[] }> = {
  validation_error: {
    detail: '/name: must not be empty; /price_amount: must be an integer',
    errors: [
      { location: 'body', field: '/name', message: 'must not be empty' },
      { location: 'body', field: '/price_amount', message: 'must be an integer' },
    ],
  },
  malformed_json: { detail: 'The body is not valid JSON' },
  unauthenticated: { detail: 'Send a valid API key as "Authorization: Bearer <key>"' },
  forbidden: { detail: 'This API key has no access to facility 1' },
  not_found: { detail: 'No resource at /admin/facilities/1/plan' },
  plan_not_found: { detail: 'Facility 1 has no plan with id 7' },
  member_not_found: {
    detail: 'Facility 1 has no member with id 42',
  },
  freeze_not_found: { detail: 'Member 42 has no freeze with id 5' },
  freeze_overlap: { detail: 'The freeze overlaps freeze 5 (2026-03-01 to 2026-03-21)' },
  freeze_limit_exceeded: {
    detail:
      "The freeze would take 21 days in 2026, but only 14 of the policy's 60 freeze days per year are left",
  },
  waiver_required: {
    detail:
      "This facility's policy requires a signed waiver: set waiver_signed_at before the member becomes active",
  },
  entitlement_not_found: {
    detail: 'Plan 7 has no entitlement "towel"',
  },
  webhook_endpoint_not_found: { detail: 'Facility 1 has no webhook endpoint 3' },
  delivery_not_found: { detail: 'Webhook endpoint 3 has no delivery 981' },
  import_not_found: { detail: 'Facility 1 has no member import with id 17' },
  import_in_progress: {
    detail:
      'Facility 1 has an import that is not finished (running): /admin/facilities/1/members/imports/17; ' +
      'one import of a facility runs at a time',
  },
  webhook_endpoint_limit: { detail: 'Facility 1 already has its maximum of 20 webhook endpoints' },
  invalid_webhook_url: { detail: 'A webhook URL must use https' },
  method_not_allowed: { detail: 'PUT is not allowed here; allowed: GET, HEAD, POST' },
  plan_name_conflict: { detail: 'A plan named "Adult monthly" already exists in this facility' },
  member_email_conflict: {
    detail: 'A member with email ada@example.com already exists in this facility',
  },
  member_external_id_conflict: {
    detail: 'A member with external_id CRM-1042 already exists in this facility',
  },
  invalid_csv: {
    detail:
      'Line 1: unknown column "nickname"; the columns are the member fields (first_name, last_name, email, …)',
  },
  plan_archived: {
    detail:
      'Plan 7 is archived (soft-deleted): it can only be restored, with a PATCH of exactly {"is_active": true}',
  },
  plan_in_use: {
    detail: 'Plan 7 is referred to by members (removed ones included); it can only be archived',
  },
  plan_full: { detail: 'Plan 7 already has its maximum of 200 members' },
  invalid_status_transition: {
    detail: 'A member cannot move from cancelled to frozen; from cancelled it can move to: active',
  },
  freeze_not_allowed: {
    detail: "This facility's policy does not allow freezing memberships",
  },
  idempotency_in_progress: {
    detail: 'A request with this Idempotency-Key is still being processed; retry shortly',
  },
  request_timeout: { detail: 'The request did not arrive in time' },
  precondition_failed: {
    detail: 'If-Match does not match the current ETag: the resource changed; read it again',
  },
  payload_too_large: { detail: 'The body is larger than the configured limit' },
  unsupported_media_type: {
    detail: 'The body must be JSON, sent with Content-Type: application/json',
  },
  range_not_satisfiable: { detail: 'The range is outside the file' },
  invalid_plan: { detail: 'Plan 7 is not active' },
  invalid_template: { detail: 'There is no plan template with id 99' },
  member_too_young: {
    detail: 'Members of this facility must be at least 16 years old',
  },
  idempotency_key_reused: {
    detail: 'This Idempotency-Key was used for a different request; use a new key for a new request',
  },
  rate_limited: {
    detail:
      'Too many requests: at most 3000 per 60 s for each API key (each client address when authentication is off); retry in 17 s',
  },
  request_headers_too_large: { detail: 'The request line and headers are over 16 KB' },
  internal_error: { detail: 'An unexpected error occurred; it has been logged' },
  service_unavailable: { detail: 'The database is not reachable; try again shortly' },
};

/** A realistic problem document for the code, as the error handler writes it. */
export function problemExample(code: ErrorCode) {
  const { detail, errors } = EXAMPLES[code];
  return {
    type: problemType(code),
    title: ERROR_CODES[code].title,
    status: ERROR_CODES[code].status,
    detail,
    code,
    // The OpenAPI document puts each operation's own path here (src/http/openapi.ts).
    instance: '/admin/facilities/1/plans',
    request_id: '4e8486049265b344-2v',
    ...(errors ? { errors } : {}),
  };
}
