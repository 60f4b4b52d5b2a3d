/**
 * The one error type of the service. Every failure a client can see is an
 * `AppError` with a code from this closed set; the error handler turns it into
 * problem+json.
 */
export const ERROR_CODES = {
  validation_error: { status: 400, title: 'Request is not valid' },
  malformed_json: { status: 400, title: 'Body is not valid JSON' },
  invalid_csv: { status: 400, title: 'Body is not a CSV file this service can read' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Not allowed' },
  not_found: { status: 404, title: 'Not found' },
  plan_not_found: { status: 404, title: 'Plan not found' },
  member_not_found: { status: 404, title: 'Member not found' },
  entitlement_not_found: { status: 404, title: 'Entitlement not found' },
  freeze_not_found: { status: 404, title: 'Freeze not found' },
  webhook_endpoint_not_found: { status: 404, title: 'Webhook endpoint not found' },
  delivery_not_found: { status: 404, title: 'Webhook delivery not found' },
  import_not_found: { status: 404, title: 'Member import not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  plan_name_conflict: { status: 409, title: 'Plan name already in use' },
  member_email_conflict: { status: 409, title: 'Member email already in use' },
  member_external_id_conflict: { status: 409, title: 'Member external_id already in use' },
  plan_archived: { status: 409, title: 'Plan is archived' },
  plan_in_use: { status: 409, title: 'Plan is in use' },
  plan_full: { status: 409, title: 'Plan is full' },
  invalid_status_transition: { status: 409, title: 'Status change not allowed' },
  freeze_not_allowed: { status: 409, title: 'Freezing is not allowed' },
  freeze_overlap: { status: 409, title: 'Freeze overlaps another' },
  webhook_endpoint_limit: { status: 409, title: 'Too many webhook endpoints' },
  import_in_progress: { status: 409, title: 'An import of this facility is not finished' },
  idempotency_in_progress: { status: 409, title: 'Request with this idempotency key in progress' },
  request_timeout: { status: 408, title: 'Request timed out' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  payload_too_large: { status: 413, title: 'Body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  invalid_plan: { status: 422, title: 'Plan cannot be used' },
  invalid_template: { status: 422, title: 'Template not found' },
  member_too_young: { status: 422, title: 'Member is too young' },
  freeze_limit_exceeded: { status: 422, title: 'Yearly freeze days exceeded' },
  waiver_required: { status: 422, title: 'Waiver not signed' },
  invalid_webhook_url: { status: 422, title: 'Webhook URL not allowed' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused with another body' },
  rate_limited: { status: 429, title: 'Too many requests' },
  request_headers_too_large: { status: 431, title: 'Request headers too large' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldError {
  location: 'body' | 'query' | 'path' | 'header';
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  /** How many more problems were found than `errors` lists. */
  readonly errorsOmitted: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; errorsOmitted?: number; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.errorsOmitted = options.errorsOmitted ?? 0;
    this.headers = options.headers ?? {};
  }
}

/** A stable URI per code, as RFC 9457 asks for `type`. */
export function problemType(code: ErrorCode): string {
  return `urn:facility-admin:problem:${code}`;
}

/** Shorthand for a validation error about one field. */
export function invalidField(location: FieldError['location'], field: string, message: string): AppError {
  return new AppError('validation_error', `${field}: ${message}`, {
    errors: [{ location, field, message }],
  });
}
